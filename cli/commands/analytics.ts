// `reterm analytics recovery|progress|compare|task-health|distributions|annotation|runs|tasks`: the dashboard's analytics for scripts and notebooks.
// --json prints the same objects as GET /api/v1/analytics/…; without it, a plain table.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { analyticsFilterArgs, ANALYTICS_FILTER_OPTIONS } from "../analytics-filter-args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { getRecoveryAnalytics, type RecoveryFigures } from "../../lib/services/analytics/get-recovery-analytics.ts";
import { getTrainingProgress } from "../../lib/services/analytics/get-training-progress.ts";
import { compareRuns } from "../../lib/services/analytics/compare-runs.ts";
import { getTaskHealth } from "../../lib/services/analytics/get-task-health.ts";
import { getDistributions } from "../../lib/services/analytics/get-distributions.ts";
import { getAnnotationAnalytics, periodSchema } from "../../lib/services/analytics/get-annotation-analytics.ts";
import { resolveRunNames } from "../../lib/services/analytics/resolve-runs.ts";
import { listRunFigures, listTaskFigures } from "../../lib/services/browse/list-catalog-figures.ts";
import type { AnalyticsFilter } from "../../lib/validation/analytics-params.ts";
import { failureModesCommand, FAILURE_MODES_HELP } from "./failure-modes.ts";

export const ANALYTICS_HELP = `analytics recovery|progress|task-health|distributions [--run NAME]… [--model M]… [--checkpoint C]… [--method base|grpo|…]… [--category C]… [--json]
  analytics compare --run BASELINE --run OTHER… [--k K] [--json]
  analytics annotation [--period day|week] [filters as above] [--json]
  analytics runs|tasks [--json]
                               recovery by error category, pass@k by checkpoint, run comparison, task health,
                               distributions, annotation progress and agreement over time; every run or task with
                               pass rate, pass@k and recovery (the Runs / Tasks pages, GET /api/v1/runs|tasks)
  ${FAILURE_MODES_HELP}`;

const argsSchema = z.object({
  ...analyticsFilterArgs,
  k: z.coerce.number().int().min(1).max(64).default(1),
  period: periodSchema,
  json: z.boolean().default(false),
});
const OPTIONS = {
  ...ANALYTICS_FILTER_OPTIONS,
  k: { type: "string" },
  period: { type: "string" },
  json: { type: "boolean" },
} as const;

const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);
const ciPct = (ci: { lo: number; hi: number } | null) => (ci ? `[${pct(ci.lo)}, ${pct(ci.hi)}]` : "");

function recoveryLine(label: string, r: RecoveryFigures): string {
  const k = r.recoveryAtK;
  return [
    label.padEnd(24),
    String(r.forkPoints).padStart(6),
    String(r.attempts).padStart(8),
    String(r.successfulAttempts).padStart(8),
    pct(r.recoveryRate).padStart(9),
    ...[k["1"], k["2"], k["4"], k["8"]].map((v) => pct(v).padStart(7)),
  ].join(" ");
}

async function run(ctx: ServiceContext, sub: string, v: z.infer<typeof argsSchema>): Promise<unknown> {
  const runIds = await resolveRunNames(ctx, v.run);
  const filter: AnalyticsFilter = {
    runId: sub === "compare" ? [] : runIds,
    model: v.model,
    checkpoint: v.checkpoint,
    method: v.method,
    category: v.category,
  };
  if (sub === "recovery") {
    const r = await getRecoveryAnalytics(ctx, filter);
    if (!v.json) {
      console.log(
        [
          "category".padEnd(24),
          "forks".padStart(6),
          "attempts".padStart(8),
          "success".padStart(8),
          "recovery".padStart(9),
          ...["@1", "@2", "@4", "@8"].map((s) => s.padStart(7)),
        ].join(" "),
      );
      for (const c of r.categories) console.log(recoveryLine(c.category ?? "(uncategorized)", c));
      console.log(recoveryLine("overall", r.overall));
      const n = r.overall.recoveryAtKForkPoints;
      console.log(
        `recovery@k averages over fork points with ≥ k known-outcome attempts: @1 ${n["1"]}, @2 ${n["2"]}, @4 ${n["4"]}, @8 ${n["8"]} (— = none); ${r.overall.unknownAttempts} attempts of unknown outcome left out`,
      );
      return undefined;
    }
    return { categories: r.categories, overall: r.overall };
  }
  if (sub === "runs" || sub === "tasks") {
    if (runIds.length || v.model.length || v.checkpoint.length || v.method.length || v.category.length)
      throw new UsageError(`analytics ${sub} takes no filter: it lists every ${sub === "runs" ? "run" : "task"}`);
    // The same object as GET /api/v1/runs or /tasks.
    const out = sub === "runs" ? (await listRunFigures(ctx)).runs : (await listTaskFigures(ctx)).tasks;
    if (v.json) return sub === "runs" ? { runs: out } : { tasks: out };
    console.log([sub === "runs" ? "run" : "task", "rollouts", "unknown", "pass rate [95% CI]", "pass@1", "pass@4", "recovery"].join("\t"));
    for (const r of out)
      console.log(
        [
          r.name,
          r.counts.rollouts,
          r.counts.unknown,
          `${pct(r.passRate.rate)} ${ciPct(r.passRate.ci)}`,
          pct(r.passAtK["1"]),
          pct(r.passAtK["4"]),
          pct(r.recovery.recoveryRate),
        ].join("\t"),
      );
    return undefined;
  }
  if (sub === "progress") return getTrainingProgress(ctx, filter);
  if (sub === "task-health") return getTaskHealth(ctx, filter);
  if (sub === "distributions") {
    // The same object as GET /api/v1/analytics/distributions.
    const d = await getDistributions(ctx, filter);
    return {
      length: d.length,
      firstError: d.firstError,
      withoutError: d.withoutError,
      attemptsToRecover: d.attemptsToRecover,
      siblingReward: d.siblingReward,
    };
  }
  if (sub === "annotation") {
    // The same object as GET /api/v1/analytics/annotation.
    const a = await getAnnotationAnalytics(ctx, filter, v.period);
    return { period: a.period, periods: a.periods, labels: a.labels, completed: a.completed, agreement: a.agreement };
  }
  if (sub === "compare") {
    if (runIds.length < 2) throw new UsageError("analytics compare needs at least two --run NAME (the first is the baseline)");
    return compareRuns(ctx, runIds, v.k, filter);
  }
  throw new UsageError(
    `unknown analytics subcommand "${sub}" (recovery, progress, compare, task-health, distributions, annotation, failure-modes, runs, tasks)`,
  );
}

export async function analyticsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (!sub)
    throw new UsageError(
      "usage: analytics recovery|progress|compare|task-health|distributions|annotation|failure-modes|runs|tasks [options]",
    );
  // Its own options (tasks, dates, a two-sided comparison): parsed by its own command.
  if (sub === "failure-modes") return failureModesCommand(rest);
  const { values, positionals } = parseCommandArgs(rest, OPTIONS, argsSchema);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const out = await run(await getCliContext(), sub, values);
  if (out !== undefined) console.log(JSON.stringify(out, null, values.json ? undefined : 2));
}
