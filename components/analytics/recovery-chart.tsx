"use client";
import { useRouter } from "next/navigation";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
  type TooltipContentProps,
} from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, TOOLTIP_STYLE } from "./chart-theme";

export interface RecoveryBar {
  label: string;
  /** Recovery rate (recovered / evaluated fork points); null when no fork point has a known-outcome attempt. */
  rate: number | null;
  lo: number | null;
  hi: number | null;
  recovered: number;
  evaluated: number;
  unevaluated: number;
  attempts: number;
  successful: number;
  unknownAttempts: number;
  attemptsHref: string;
}

const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(0)}%`);

function describe(b: RecoveryBar): string {
  const rate =
    b.rate === null
      ? "no recovery rate (no attempt of known outcome)"
      : `recovery rate ${pct(b.rate)} [95% CI ${pct(b.lo)}–${pct(b.hi)}], ${b.recovered} of ${b.evaluated} fork points`;
  return `${b.label}, ${rate}; ${b.attempts} attempts, ${b.successful} successful${b.unknownAttempts ? `, ${b.unknownAttempts} unknown` : ""}`;
}

function RecoveryTooltip({ active, payload }: TooltipContentProps<ValueType, NameType>) {
  const b = payload?.[0]?.payload as RecoveryBar | undefined;
  if (!active || !b) return null;
  return (
    <div style={TOOLTIP_STYLE.contentStyle} className="px-3 py-2">
      <p style={TOOLTIP_STYLE.labelStyle}>{b.label}</p>
      <p>
        Recovery rate {pct(b.rate)}
        {b.lo !== null ? ` (95% CI ${pct(b.lo)}–${pct(b.hi)})` : ""}
      </p>
      <p>
        {b.recovered} of {b.evaluated} fork points recovered{b.unevaluated ? `; ${b.unevaluated} without a known-outcome attempt` : ""}
      </p>
      <p>
        {b.attempts} attempts, {b.successful} successful{b.unknownAttempts ? `, ${b.unknownAttempts} unknown` : ""}
      </p>
    </div>
  );
}

/**
 * Recovery rate per error category as horizontal bars with their 95% intervals; each bar (a link) opens the
 * category's attempts. Counts are in the tooltip and the table view.
 */
export function RecoveryChart({ bars }: { bars: RecoveryBar[] }) {
  const router = useRouter();
  const height = 56 + bars.length * 40;
  const data = bars.map((b) => ({ ...b, value: b.rate ?? 0, err: b.rate === null ? [0, 0] : [b.rate - b.lo!, b.hi! - b.rate] }));
  function RateBar(p: BarShapeProps) {
    const b = bars[p.index];
    if (!b) return <g />;
    // A zero rate still gets a sliver, so every category with a known-outcome attempt stays clickable.
    const width = b.rate === null ? 0 : Math.max(p.width, 3);
    const go = () => router.push(b.attemptsHref);
    return (
      <g
        role="link"
        tabIndex={0}
        aria-label={`${describe(b)}. Open these attempts`}
        data-testid="bar-recovery"
        data-label={b.label}
        data-rate={b.rate ?? ""}
        data-attempts={b.attempts}
        className="cursor-pointer outline-none focus-visible:opacity-80"
        onClick={go}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            go();
          }
        }}
      >
        <rect
          x={p.x}
          y={p.y}
          width={Math.max(width, 0)}
          height={p.height}
          rx={2}
          fill={p.fill}
          className="transition-opacity hover:opacity-80"
        />
        {/* Transparent hit area across the row, so a short bar is easy to click. */}
        <rect x={p.x} y={p.y} width={Math.max(p.background?.width ?? 0, width)} height={p.height} fill="transparent" />
        {/* The value right of the axis, clear of the interval's whisker. */}
        <text
          x={(p.background?.x ?? p.x) + (p.background?.width ?? p.width) + 10}
          y={p.y + p.height / 2}
          dominantBaseline="central"
          fontSize={11}
          fill="var(--color-muted-foreground)"
          pointerEvents="none"
        >
          {b.rate === null ? "— no known outcome" : `${pct(b.rate)} (${b.recovered}/${b.evaluated})`}
        </text>
      </g>
    );
  }
  return (
    <div
      className={CHART_VARS}
      role="figure"
      aria-label={`Recovery rate by error category with 95% intervals: ${bars.map(describe).join("; ")}`}
    >
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ left: 8, right: 120, top: 4, bottom: 4 }}>
          <CartesianGrid horizontal={false} stroke={GRID_STROKE} />
          <XAxis
            type="number"
            domain={[0, 1]}
            ticks={[0, 0.25, 0.5, 0.75, 1]}
            tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
            tick={AXIS_TICK}
            stroke={GRID_STROKE}
          />
          <YAxis type="category" dataKey="label" width={170} tick={AXIS_TICK} stroke={GRID_STROKE} interval={0} />
          <Tooltip content={RecoveryTooltip} cursor={TOOLTIP_STYLE.cursor} />
          <Bar
            dataKey="value"
            name="Recovery rate"
            fill="var(--chart-1)"
            isAnimationActive={false}
            shape={RateBar}
            barSize={18}
            background={{ fill: "transparent" }}
          >
            <ErrorBar
              dataKey="err"
              direction="x"
              width={8}
              strokeWidth={1.5}
              stroke="var(--color-foreground)"
              strokeOpacity={0.7}
              isAnimationActive={false}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
