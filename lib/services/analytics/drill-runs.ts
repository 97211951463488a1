// The trajectory table filters runs by id and model only; checkpoint and training method are run properties. So a
// drill-down from a filtered chart names the matching runs explicitly, which keeps its row count exact.
import { authorize, type ServiceContext } from "../context.ts";
import { allRuns } from "./render-memo.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";

export async function resolveDrillRuns(ctx: ServiceContext, f: AnalyticsFilter): Promise<string[] | null> {
  if (!f.runId.length && !f.model.length && !f.checkpoint.length && !f.method.length) return null;
  const runs = await allRuns(ctx);
  return runs
    .filter((r) => (!f.runId.length || f.runId.includes(r.id)) && (!f.model.length || (r.model !== null && f.model.includes(r.model))))
    .filter(
      (r) =>
        (!f.checkpoint.length || (r.checkpoint !== null && f.checkpoint.includes(r.checkpoint))) &&
        (!f.method.length || (r.trainingMethod !== null && f.method.includes(r.trainingMethod))),
    )
    .map((r) => r.id);
}

/** The scope drill-down links need, on its own: the page's sections stream separately and each builds its links. */
export async function getDrillScope(
  ctx: ServiceContext,
  filter: AnalyticsFilter,
): Promise<{ filter: AnalyticsFilter; drillRunIds: string[] | null }> {
  authorize(ctx, "trajectory:read");
  return { filter, drillRunIds: await resolveDrillRuns(ctx, filter) };
}
