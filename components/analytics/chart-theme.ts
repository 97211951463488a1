// Chart colours as CSS variables set on the chart's container, one value per theme, so charts follow light/dark
// without re-rendering. Chosen for contrast on both card backgrounds and for colour-blind safety (blue/orange/teal).
export const CHART_VARS =
  "[--chart-1:oklch(0.55_0.16_255)] [--chart-2:oklch(0.68_0.16_55)] [--chart-3:oklch(0.6_0.12_185)] [--chart-4:oklch(0.55_0.18_320)] [--chart-5:oklch(0.6_0.02_260)] " +
  "dark:[--chart-1:oklch(0.72_0.13_255)] dark:[--chart-2:oklch(0.78_0.14_60)] dark:[--chart-3:oklch(0.75_0.11_185)] dark:[--chart-4:oklch(0.72_0.15_320)] dark:[--chart-5:oklch(0.72_0.02_260)]";

export const SERIES_COLORS = ["var(--chart-1)", "var(--chart-2)", "var(--chart-3)", "var(--chart-4)", "var(--chart-5)"];

export const AXIS_TICK = { fill: "var(--color-muted-foreground)", fontSize: 12 };
export const GRID_STROKE = "var(--color-border)";
export const TOOLTIP_STYLE = {
  contentStyle: {
    background: "var(--color-card)",
    border: "1px solid var(--color-border)",
    borderRadius: 6,
    fontSize: 12,
    color: "var(--color-foreground)",
  },
  labelStyle: { color: "var(--color-foreground)", fontWeight: 600 },
  cursor: { fill: "var(--color-muted)", opacity: 0.5 },
};
