// `reterm analytics failure-modes`: failure modes ranked by trajectories affected, or two runs / checkpoints compared.
// --json prints the same objects as GET /api/v1/analytics/failure-modes; without it, a plain table.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { analyticsFilterArgs, ANALYTICS_FILTER_OPTIONS, filterName } from "../analytics-filter-args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { resolveRunNames } from "../../lib/services/analytics/resolve-runs.ts";
import { compareFailureModes, listFailureModes, type ModeChange } from "../../lib/services/failure-modes/index.ts";
import { failureModesQueryFrom, failureModesQuerySchema } from "../../lib/validation/failure-modes-params.ts";

export const FAILURE_MODES_HELP = `analytics failure-modes [--run NAME]… [--model M]… [--checkpoint C]… [--method M]… [--category C]… [--task ID]…
                          [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--run A --compare B | --checkpoint A --compare B] [--json]
                               failure modes (normalised error signatures) ranked by trajectories affected, or compared`;

const argsSchema = z.object({
  ...analyticsFilterArgs,
  task: z.array(filterName).default([]),
  from: z.string().optional(),
  to: z.string().optional(),
  limit: z.string().optional(),
  compare: filterName.optional(),
  json: z.boolean().default(false),
});
const OPTIONS = {
  ...ANALYTICS_FILTER_OPTIONS,
  task: { type: "string", multiple: true },
  from: { type: "string" },
  to: { type: "string" },
  limit: { type: "string" },
  compare: { type: "string" },
  json: { type: "boolean" },
} as const;

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(1)}%`);
const cut = (s: string, n: number) => (s.length <= n ? s.padEnd(n) : `${s.slice(0, n - 1)}…`);

function changeLine(c: ModeChange): string {
  const d = c.difference;
  return [
    cut(c.signature, 64),
    pct(c.baseline.share).padStart(7),
    pct(c.compared.share).padStart(7),
    (d
      ? `${d.diff >= 0 ? "+" : ""}${(d.diff * 100).toFixed(1)} [${(d.ci.lo * 100).toFixed(1)}, ${(d.ci.hi * 100).toFixed(1)}]`
      : "—"
    ).padStart(24),
    c.significant ? " *" : "",
  ].join(" ");
}

export async function failureModesCommand(argv: string[]): Promise<void> {
  const { values: v, positionals } = parseCommandArgs(argv, OPTIONS, argsSchema);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const ctx = await getCliContext();
  const runIds = await resolveRunNames(ctx, [...v.run, ...(v.compare && v.run.length ? [v.compare] : [])]);
  let compareBy: "run" | "checkpoint" | undefined;
  let baseline: string | undefined;
  let compared: string | undefined;
  if (v.compare) {
    if (v.run.length === 1) [compareBy, baseline, compared] = ["run", runIds[0], runIds[1]];
    else if (v.checkpoint.length === 1 && !v.run.length) [compareBy, baseline, compared] = ["checkpoint", v.checkpoint[0], v.compare];
    else
      throw new UsageError("--compare needs exactly one --run (runs compared) or one --checkpoint (checkpoints compared) as the baseline");
  }
  const query = failureModesQueryFrom(
    failureModesQuerySchema.parse({
      runId: compareBy ? [] : runIds,
      model: v.model,
      checkpoint: compareBy === "checkpoint" ? [] : v.checkpoint,
      method: v.method,
      category: v.category,
      taskId: v.task,
      from: v.from,
      to: v.to,
      limit: v.limit,
      compareBy,
      baseline,
      compared,
    }),
  );
  if (query.compare) {
    const c = await compareFailureModes(ctx, query.filter, query.compare, query.limit);
    if (v.json) return console.log(JSON.stringify(c));
    console.log(
      `baseline ${c.by} ${v.compare && c.by === "run" ? v.run[0] : c.baseline.value}: ${c.baseline.failedTrajectories} failed trajectories, ${c.baseline.modes} modes`,
    );
    console.log(`compared ${c.by} ${v.compare}: ${c.compared.failedTrajectories} failed trajectories, ${c.compared.modes} modes`);
    console.log(["", cut("mode", 64), "base".padStart(7), "comp".padStart(7), "diff pp [95% CI]".padStart(24)].join(" ").slice(1));
    for (const [title, list] of [
      ["only in compared", c.onlyInCompared],
      ["only in baseline", c.onlyInBaseline],
      ["in both", c.changed],
    ] as const) {
      console.log(`— ${title} (${list.length})`);
      for (const m of list) console.log(changeLine(m));
    }
    return;
  }
  const list = await listFailureModes(ctx, query.filter, { limit: query.limit });
  if (v.json) return console.log(JSON.stringify(list));
  if (list.needsReindex)
    console.log("This database has failing steps but no failure signatures yet: run `npm run reterm -- reindex-failure-modes`.");
  console.log(`${list.totalModes} modes over ${list.failedTrajectories} failed trajectories`);
  console.log(
    [
      cut("mode", 64),
      "traj".padStart(6),
      "share".padStart(7),
      "steps".padStart(6),
      cut("category", 18),
      "recovery".padStart(9),
      " top values",
    ].join(" "),
  );
  for (const m of list.modes) {
    console.log(
      [
        cut(m.signature, 64),
        String(m.trajectories).padStart(6),
        pct(m.shareOfFailures).padStart(7),
        String(m.steps).padStart(6),
        cut(m.category, 18),
        pct(m.recovery.recoveryRate).padStart(9),
        ` ${m.values.map((x) => `${x.value} ${x.count}`).join(", ")}`,
      ].join(" "),
    );
  }
}
