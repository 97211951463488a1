"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotItemDotProps } from "recharts";
import { Button } from "@/components/ui/button";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, SERIES_COLORS, TOOLTIP_STYLE } from "./chart-theme";

export interface ProgressLinePoint {
  step: number;
  checkpoint: string;
  runName: string;
  /** pass@k by k ("1", "2", "4", "8"); null where no task has k rollouts. */
  passAt: Record<string, number | null>;
  href: string;
}
export interface ProgressLineSeries {
  key: string;
  points: ProgressLinePoint[];
}

const pct = (v: unknown) => (typeof v === "number" ? `${Math.round(v * 100)}%` : "—");

/** pass@k by checkpoint, one line per model · method; each point opens that run's original rollouts. */
export function ProgressChart({ series, ks }: { series: ProgressLineSeries[]; ks: readonly number[] }) {
  const router = useRouter();
  const [k, setK] = useState(String(ks[0] ?? 1));
  const dot = (s: ProgressLineSeries, color: string) =>
    function ProgressDot(p: DotItemDotProps) {
      const point = s.points[p.index];
      if (!point || typeof p.cx !== "number" || typeof p.cy !== "number") return <g />;
      const label = `${s.key}, ${point.checkpoint} (${point.runName}): pass@${k} ${pct(point.passAt[k])}. Open its rollouts`;
      return (
        <circle cx={p.cx} cy={p.cy} r={5} fill={color} stroke="var(--color-card)" strokeWidth={2} role="link" tabIndex={0} aria-label={label}
          data-testid="progress-point" className="cursor-pointer outline-none" onClick={() => router.push(point.href)}
          onKeyDown={(e) => (e.key === "Enter" ? router.push(point.href) : undefined)} />
      );
    };
  return (
    <div className={CHART_VARS}>
      <div className="mb-2 flex items-center gap-1 text-xs text-muted-foreground" role="group" aria-label="Metric">
        {ks.map((v) => (
          <Button key={v} size="sm" variant={String(v) === k ? "secondary" : "ghost"} aria-pressed={String(v) === k} onClick={() => setK(String(v))}>
            pass@{v}
          </Button>
        ))}
      </div>
      <div role="figure" aria-label={`pass@${k} by checkpoint: ${series.map((s) => `${s.key}: ${s.points.map((p) => `${p.checkpoint} ${pct(p.passAt[k])}`).join(", ")}`).join("; ")}`}>
        <ResponsiveContainer width="100%" height={300}>
          <LineChart margin={{ left: 0, right: 24, top: 8, bottom: 4 }}>
            <CartesianGrid stroke={GRID_STROKE} />
            <XAxis type="number" dataKey="step" domain={["dataMin", "dataMax"]} allowDuplicatedCategory={false} tick={AXIS_TICK} stroke={GRID_STROKE}
              label={{ value: "training step (from checkpoint name)", position: "insideBottom", offset: -2, fill: "var(--color-muted-foreground)", fontSize: 11 }} height={40} />
            <YAxis domain={[0, 1]} tickFormatter={pct} tick={AXIS_TICK} stroke={GRID_STROKE} width={48} />
            <Tooltip {...TOOLTIP_STYLE} formatter={(v) => pct(v)} labelFormatter={(v) => `step ${v}`} />
            <Legend wrapperStyle={{ fontSize: 12, paddingTop: 12 }} />
            {series.map((s, i) => {
              const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
              return (
                <Line key={s.key} name={s.key} data={s.points.map((p) => ({ step: p.step, value: p.passAt[k] }))} dataKey="value" stroke={color}
                  strokeWidth={2} isAnimationActive={false} connectNulls dot={dot(s, color)} activeDot={false} />
              );
            })}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
