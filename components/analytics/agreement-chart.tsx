"use client";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, SERIES_COLORS, TOOLTIP_STYLE } from "./chart-theme";

const fmt = (v: unknown) => (typeof v === "number" ? v.toFixed(2) : "—");

/** Krippendorff's α per period, one line per schema (α applies to any number of annotators, unlike Cohen's κ). */
export function AgreementChart({
  periods,
  series,
}: {
  periods: string[];
  series: { key: string; name: string; alpha: (number | null)[] }[];
}) {
  const data = periods.map((p, i) => Object.fromEntries([["period", p], ...series.map((s) => [s.key, s.alpha[i] ?? null])]));
  return (
    <div
      className={CHART_VARS}
      role="figure"
      aria-label={`Krippendorff's alpha by period. ${series.map((s) => `${s.name}: ${periods.map((p, i) => `${p} ${fmt(s.alpha[i])}`).join(", ")}`).join("; ")}`}
    >
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={data} margin={{ left: 0, right: 24, top: 8, bottom: 4 }}>
          <CartesianGrid stroke={GRID_STROKE} />
          <XAxis
            dataKey="period"
            tick={AXIS_TICK}
            stroke={GRID_STROKE}
            height={40}
            label={{
              value: "period (latest label on the item)",
              position: "insideBottom",
              offset: -2,
              fill: "var(--color-muted-foreground)",
              fontSize: 11,
            }}
          />
          <YAxis domain={[-1, 1]} tickFormatter={fmt} tick={AXIS_TICK} stroke={GRID_STROKE} width={48} />
          <Tooltip {...TOOLTIP_STYLE} formatter={(v) => fmt(v)} />
          <Legend wrapperStyle={{ fontSize: 12, paddingTop: 12 }} />
          {series.map((s, i) => (
            <Line
              key={s.key}
              name={s.name}
              dataKey={s.key}
              stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
              strokeWidth={2}
              isAnimationActive={false}
              connectNulls
              dot={{ r: 4 }}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
