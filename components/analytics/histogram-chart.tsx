"use client";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, TOOLTIP_STYLE } from "./chart-theme";
import { drillBarShape } from "./drill-bar";

export interface HistogramBar {
  label: string;
  a: number;
  b?: number;
  /** Trajectory-table links for each series, where the table's filters can express the bucket. */
  aHref?: string;
  bHref?: string;
}

interface Props {
  bars: HistogramBar[];
  /** Series names; a second series is stacked on the first. */
  names: { a: string; b?: string };
  xLabel: string;
  /** What the figure shows, for screen readers. */
  title: string;
}

/** A histogram of one or two stacked series; bars with a link open their trajectories. */
export function HistogramChart({ bars, names, xLabel, title }: Props) {
  const router = useRouter();
  const drill = (key: "a" | "b", seriesName: string, testId: string) => {
    const items = bars.map((x) => ({ href: (key === "a" ? x.aHref : x.bHref) ?? "", label: x.label }));
    return items.every((i) => i.href) ? drillBarShape(items, seriesName, router.push, testId) : undefined;
  };
  const describe = (x: HistogramBar) =>
    `${x.label}: ${x.a}${names.b ? ` ${names.a.toLowerCase()}, ${x.b ?? 0} ${names.b.toLowerCase()}` : ""}`;
  return (
    <div className={CHART_VARS} role="figure" aria-label={`${title}. ${bars.map(describe).join("; ")}`}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={bars} margin={{ left: 0, right: 16, top: 8, bottom: 4 }} barCategoryGap="12%">
          <CartesianGrid vertical={false} stroke={GRID_STROKE} />
          <XAxis
            dataKey="label"
            tick={AXIS_TICK}
            stroke={GRID_STROKE}
            height={40}
            label={{ value: xLabel, position: "insideBottom", offset: -2, fill: "var(--color-muted-foreground)", fontSize: 11 }}
          />
          <YAxis allowDecimals={false} tick={AXIS_TICK} stroke={GRID_STROKE} width={44} />
          <Tooltip {...TOOLTIP_STYLE} />
          {names.b ? <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} /> : null}
          <Bar
            dataKey="a"
            name={names.a}
            stackId="h"
            fill="var(--chart-1)"
            isAnimationActive={false}
            shape={drill("a", names.a, "hist-bar-a")}
          />
          {names.b ? (
            <Bar
              dataKey="b"
              name={names.b}
              stackId="h"
              fill="var(--chart-2)"
              isAnimationActive={false}
              shape={drill("b", names.b, "hist-bar-b")}
            />
          ) : null}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
