// Recompute the failure signatures of existing trajectories (a database imported before signatures existed, or
// after the normaliser changed). Reads only the steps the import's detector flagged, in batches of trajectories,
// each batch replaced in one transaction: a killed reindex leaves every trajectory with its old or its new
// signatures, never half, and a re-run simply starts over.
import type { Db } from "../../client.ts";
import { rebuildFailureModeRollups, refreshAllForkPoints } from "./rollup.ts";
import { stepSignature } from "../../../domain/failure-modes/index.ts";

const BATCH = 500;

export async function reindexFailureSignatures(
  db: Db,
  opts: { onProgress?: (trajectories: number, signatures: number) => void } = {},
): Promise<{ trajectories: number; signatures: number }> {
  let after = "";
  let trajectories = 0;
  let signatures = 0;
  for (;;) {
    const batch = await db.trajectory.findMany({
      where: { id: { gt: after } },
      select: { id: true, runId: true, taskId: true, outcome: true, importedAt: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (!batch.length) break;
    const ids = batch.map((t) => t.id);
    const steps = await db.step.findMany({
      where: { trajectoryId: { in: ids }, isError: true, isCopiedContext: false },
      select: { trajectoryId: true, index: true, observation: true, exitCode: true },
    });
    const byId = new Map(batch.map((t) => [t.id, t]));
    const rows = [];
    for (const s of steps) {
      const sig = stepSignature(s, s.index);
      const t = byId.get(s.trajectoryId)!;
      if (sig)
        rows.push({
          trajectoryId: t.id,
          stepIndex: s.index,
          templateHash: sig.templateHash,
          template: sig.template,
          kind: sig.kind,
          values: JSON.stringify(sig.values),
          value: sig.values[0] ?? null,
          category: sig.category,
          runId: t.runId,
          taskId: t.taskId,
          outcome: t.outcome,
          importedAt: t.importedAt,
        });
    }
    await db.$transaction([
      db.failureSignature.deleteMany({ where: { trajectoryId: { in: ids } } }),
      db.failureSignature.createMany({ data: rows }),
    ]);
    trajectories += batch.length;
    signatures += rows.length;
    after = ids.at(-1)!;
    opts.onProgress?.(trajectories, signatures);
  }
  // The rollup and the fork points' modes follow once, at the end (a killed reindex leaves them on the old signatures
  // until a re-run).
  await rebuildFailureModeRollups(db);
  await refreshAllForkPoints(db);
  return { trajectories, signatures };
}

/** Whether the database has failing steps but no signatures at all (imported before signatures existed). */
export async function signaturesMissing(db: Db): Promise<boolean> {
  const [sig, err] = await Promise.all([
    db.failureSignature.findFirst({ select: { trajectoryId: true } }),
    db.trajectory.findFirst({ where: { firstErrorCategory: { not: null } }, select: { id: true } }),
  ]);
  return !sig && !!err;
}
