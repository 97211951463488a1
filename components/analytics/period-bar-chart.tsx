"use client";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, SERIES_COLORS, TOOLTIP_STYLE } from "./chart-theme";
import { drillBarShape } from "./drill-bar";

export interface PeriodSeries {
  key: string;
  name: string;
  /** Value and drill link per period (same order as `periods`). */
  values: { value: number; href: string }[];
}

/** Counts per period, one stacked series per schema or queue; every bar opens what it counts. */
export function PeriodBarChart({
  periods,
  series,
  title,
  xLabel,
  testId,
}: {
  periods: string[];
  series: PeriodSeries[];
  title: string;
  xLabel: string;
  testId: string;
}) {
  const router = useRouter();
  const data = periods.map((p, i) => Object.fromEntries([["period", p], ...series.map((s) => [s.key, s.values[i]?.value ?? 0])]));
  const describe = periods.map((p, i) => `${p}: ${series.map((s) => `${s.name} ${s.values[i]?.value ?? 0}`).join(", ")}`).join("; ");
  return (
    <div className={CHART_VARS} role="figure" aria-label={`${title}. ${describe}`}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={data} margin={{ left: 0, right: 16, top: 8, bottom: 4 }} barCategoryGap="12%">
          <CartesianGrid vertical={false} stroke={GRID_STROKE} />
          <XAxis
            dataKey="period"
            tick={AXIS_TICK}
            stroke={GRID_STROKE}
            height={40}
            label={{ value: xLabel, position: "insideBottom", offset: -2, fill: "var(--color-muted-foreground)", fontSize: 11 }}
          />
          <YAxis allowDecimals={false} tick={AXIS_TICK} stroke={GRID_STROKE} width={44} />
          <Tooltip {...TOOLTIP_STYLE} />
          <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} />
          {series.map((s, i) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stackId="p"
              fill={SERIES_COLORS[i % SERIES_COLORS.length]}
              isAnimationActive={false}
              shape={drillBarShape(
                periods.map((p, j) => ({ label: p, href: s.values[j]?.href ?? "" })),
                s.name,
                router.push,
                testId,
              )}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
