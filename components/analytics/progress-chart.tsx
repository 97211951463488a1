"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
  type TooltipContentProps,
} from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import { Button } from "@/components/ui/button";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, SERIES_COLORS, TOOLTIP_STYLE } from "./chart-theme";

export interface ProgressLinePoint {
  step: number;
  checkpoint: string;
  runName: string;
  /** pass@k by k ("1", "2", "4", "8"); null where no task has k rollouts. */
  passAt: Record<string, number | null>;
  /** 95% interval of pass@k by k. */
  ci: Record<string, { lo: number; hi: number } | null>;
  /** Tasks behind pass@k by k. */
  tasks: Record<string, number>;
  /** Known-outcome rollouts, and unknown ones (left out). */
  rollouts: number;
  unknown: number;
  /** Too few rollouts to read: drawn hollow. */
  lowN: boolean;
  href: string;
}
export interface ProgressLineSeries {
  key: string;
  model: string | null;
  method: string | null;
  points: ProgressLinePoint[];
}

const DASHES = [undefined, "7 4", "2 3", "10 3 2 3"];

/** Colour by model, dash by training method: nine series stay apart with five colour-blind-safe colours. */
function styles(series: readonly ProgressLineSeries[]): { color: string; dash: string | undefined }[] {
  const models = [...new Set(series.map((s) => s.model ?? ""))];
  const methods = [...new Set(series.map((s) => s.method ?? ""))];
  return series.map((s) => ({
    color: SERIES_COLORS[models.indexOf(s.model ?? "") % SERIES_COLORS.length]!,
    dash: DASHES[methods.indexOf(s.method ?? "") % DASHES.length],
  }));
}

const pct = (v: unknown) => (typeof v === "number" ? `${Math.round(v * 100)}%` : "—");

interface Datum {
  step: number;
  value: number | null;
  band: [number, number] | null;
  point: ProgressLinePoint;
  series: string;
}

function ProgressTooltip({ active, payload, k }: TooltipContentProps<ValueType, NameType> & { k: string }) {
  const rows = (payload ?? []).filter((p) => p.dataKey === "value").map((p) => p.payload as Datum);
  if (!active || !rows.length) return null;
  return (
    <div style={TOOLTIP_STYLE.contentStyle} className="flex flex-col gap-1 px-3 py-2">
      <p style={TOOLTIP_STYLE.labelStyle}>step {rows[0]!.step}</p>
      {rows.map(({ series, point: p }) => (
        <p key={series}>
          {series} ({p.runName}): pass@{k} {pct(p.passAt[k])}
          {p.ci[k] ? ` [${pct(p.ci[k]!.lo)}–${pct(p.ci[k]!.hi)}]` : ""} · n = {p.rollouts} rollouts, {p.tasks[k]} tasks
          {p.unknown ? ` · ${p.unknown} unknown` : ""}
          {p.lowN ? " · fewer than 5 rollouts" : ""}
        </p>
      ))}
    </div>
  );
}

/**
 * pass@k by checkpoint, one line per model · method, with a shaded 95% band; each point is labelled with its n
 * (known-outcome rollouts), is hollow when that n is under 5, and opens that run's original rollouts.
 */
export function ProgressChart({ series, ks }: { series: ProgressLineSeries[]; ks: readonly number[] }) {
  const router = useRouter();
  const [k, setK] = useState(String(ks[0] ?? 1));
  // With more than three lines, bands and n labels on all of them overlap into noise: one series is in focus (the
  // one with the most checkpoints, or the one whose legend entry was clicked), the others are drawn faint.
  const crowded = series.length > 3;
  const [focus, setFocus] = useState<string | null>(null);
  const longest = [...series].sort((a, b) => b.points.length - a.points.length)[0]?.key ?? null;
  const focused = crowded ? (focus ?? longest) : focus;
  const shown = (key: string) => focused === null || focused === key;
  const dot = (s: ProgressLineSeries, color: string) =>
    function ProgressDot(p: DotItemDotProps) {
      const point = s.points[p.index];
      if (!point || typeof p.cx !== "number" || typeof p.cy !== "number") return <g />;
      const label = `${s.key}, ${point.checkpoint} (${point.runName}): pass@${k} ${pct(point.passAt[k])}, n = ${point.rollouts} rollouts${point.lowN ? " (fewer than 5)" : ""}. Open its rollouts`;
      return (
        <g
          role="link"
          tabIndex={0}
          aria-label={label}
          data-testid="progress-point"
          data-low-n={point.lowN ? "true" : "false"}
          className="cursor-pointer outline-none"
          onClick={() => router.push(point.href)}
          onKeyDown={(e) => (e.key === "Enter" ? router.push(point.href) : undefined)}
        >
          <circle
            cx={p.cx}
            cy={p.cy}
            r={point.lowN ? 4 : 5}
            fill={point.lowN ? "var(--color-card)" : color}
            stroke={color}
            strokeWidth={2}
            strokeDasharray={point.lowN ? "2 1.5" : undefined}
            opacity={shown(s.key) ? 1 : 0.45}
          />
          {/* A halo in the card's colour keeps the label readable where it crosses another line or dot. */}
          {shown(s.key) ? (
            <text
              x={p.cx}
              y={p.cy - 10}
              textAnchor="middle"
              fontSize={10}
              fill="var(--color-foreground)"
              stroke="var(--color-card)"
              strokeWidth={3}
              paintOrder="stroke"
              pointerEvents="none"
            >
              n={point.rollouts}
            </text>
          ) : null}
        </g>
      );
    };
  const look = styles(series);
  const data = (s: ProgressLineSeries): Datum[] =>
    s.points.map((p) => ({
      step: p.step,
      value: p.passAt[k] ?? null,
      band: p.ci[k] ? [p.ci[k]!.lo, p.ci[k]!.hi] : null,
      point: p,
      series: s.key,
    }));
  return (
    <div className={CHART_VARS}>
      <div className="mb-2 flex flex-wrap items-center gap-1 text-xs text-muted-foreground" role="group" aria-label="Metric">
        {ks.map((v) => (
          <Button
            key={v}
            size="sm"
            variant={String(v) === k ? "secondary" : "ghost"}
            aria-pressed={String(v) === k}
            onClick={() => setK(String(v))}
          >
            pass@{v}
          </Button>
        ))}
        <span className="ml-2">
          Shaded: 95% interval · n = rollouts of known outcome · hollow point: fewer than 5
          {crowded ? ` · showing the band and n of ${focused}; click a legend entry for another` : ""}
        </span>
      </div>
      <div
        role="figure"
        aria-label={`pass@${k} by checkpoint: ${series.map((s) => `${s.key}: ${s.points.map((p) => `${p.checkpoint} ${pct(p.passAt[k])} (n = ${p.rollouts})`).join(", ")}`).join("; ")}`}
      >
        <ResponsiveContainer width="100%" height={320}>
          <ComposedChart margin={{ left: 0, right: 24, top: 16, bottom: 4 }}>
            <CartesianGrid stroke={GRID_STROKE} />
            <XAxis
              type="number"
              dataKey="step"
              domain={["dataMin", "dataMax"]}
              padding={{ left: 24, right: 24 }}
              allowDuplicatedCategory={false}
              tick={AXIS_TICK}
              stroke={GRID_STROKE}
              label={{
                value: "training step (from checkpoint name)",
                position: "insideBottom",
                offset: -2,
                fill: "var(--color-muted-foreground)",
                fontSize: 11,
              }}
              height={40}
            />
            <YAxis domain={[0, 1]} padding={{ top: 10, bottom: 10 }} tickFormatter={pct} tick={AXIS_TICK} stroke={GRID_STROKE} width={48} />
            <Tooltip content={(props: TooltipContentProps<ValueType, NameType>) => <ProgressTooltip {...props} k={k} />} />
            <Legend
              wrapperStyle={{ fontSize: 12, paddingTop: 12, cursor: "pointer" }}
              onClick={(entry) => setFocus((cur) => (typeof entry.value === "string" && cur !== entry.value ? entry.value : null))}
              formatter={(value: string) => <span style={{ fontWeight: focused === value ? 600 : 400 }}>{value}</span>}
            />
            {series.map((s, i) => {
              const { color } = look[i]!;
              if (!shown(s.key)) return null;
              return (
                <Area
                  key={`${s.key} band`}
                  data={data(s)}
                  dataKey="band"
                  stroke="none"
                  fill={color}
                  fillOpacity={0.15}
                  isAnimationActive={false}
                  connectNulls
                  legendType="none"
                  tooltipType="none"
                  activeDot={false}
                />
              );
            })}
            {/* The series in focus is drawn last: its dots and n labels lie over the others' and take the click where
                dots of several runs coincide (the legend order is alphabetical, not this one). */}
            {series
              .map((s, i) => [s, i] as const)
              .sort(([a], [b]) => Number(a.key === focused) - Number(b.key === focused))
              .map(([s, i]) => {
                const { color, dash } = look[i]!;
                return (
                  <Line
                    key={s.key}
                    name={s.key}
                    data={data(s)}
                    dataKey="value"
                    stroke={color}
                    strokeDasharray={dash}
                    legendType="plainline"
                    strokeOpacity={shown(s.key) ? 1 : 0.35}
                    strokeWidth={2}
                    isAnimationActive={false}
                    connectNulls
                    dot={dot(s, color)}
                    activeDot={false}
                  />
                );
              })}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
