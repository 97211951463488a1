"use client";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, CHART_VARS, GRID_STROKE, TOOLTIP_STYLE } from "./chart-theme";
import { drillBarShape } from "./drill-bar";

export interface RecoveryBar {
  label: string;
  attempts: number;
  successful: number;
  attemptsHref: string;
  successfulHref: string;
}

/** Attempts and successful attempts per error category, as horizontal bars; each bar opens its trajectories. */
export function RecoveryChart({ bars }: { bars: RecoveryBar[] }) {
  const router = useRouter();
  const height = 56 + bars.length * 44;
  return (
    <div className={CHART_VARS} role="figure" aria-label={`Recovery attempts by error category: ${bars.map((b) => `${b.label} ${b.successful} of ${b.attempts} succeeded`).join("; ")}`}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={bars} layout="vertical" margin={{ left: 8, right: 24, top: 4, bottom: 4 }} barGap={2}>
          <CartesianGrid horizontal={false} stroke={GRID_STROKE} />
          <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} stroke={GRID_STROKE} />
          <YAxis type="category" dataKey="label" width={170} tick={AXIS_TICK} stroke={GRID_STROKE} interval={0} />
          <Tooltip {...TOOLTIP_STYLE} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="attempts" name="Attempts" fill="var(--chart-5)" isAnimationActive={false}
            shape={drillBarShape(bars.map((b) => ({ href: b.attemptsHref, label: b.label })), "attempts", router.push, "bar-attempts")} />
          <Bar dataKey="successful" name="Successful attempts" fill="var(--chart-1)" isAnimationActive={false}
            shape={drillBarShape(bars.map((b) => ({ href: b.successfulHref, label: b.label })), "successful attempts", router.push, "bar-successful")} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
