// Labels that arrive inside native trajectories (exported datasets carry them) become Annotation rows again: the
// schema is found by key, the annotator by name (created as an annotator when new), fork-point labels by step.
import type { Db } from "../../client.ts";
import type { LabelRef } from "../../../domain/trajectory.ts";
import { ensureUser } from "../users.ts";

export interface ImportedLabels {
  trajectoryId: string;
  labels: LabelRef[];
}

function targetKey(trajectoryId: string, l: LabelRef, forkPointId: string | null): string {
  switch (l.target) {
    case "trajectory": return `traj:${trajectoryId}`;
    case "attempt": return `attempt:${trajectoryId}`;
    case "step_range": return `steps:${trajectoryId}:${l.stepStart ?? 0}-${l.stepEnd ?? l.stepStart ?? 0}`;
    case "fork_point": return `fork:${forkPointId}`;
  }
}

/** Write the labels; returns human-readable problems for labels that could not be attached (unknown schema, fork point). */
export async function attachImportedLabels(db: Db, list: ImportedLabels[]): Promise<string[]> {
  const problems: string[] = [];
  if (!list.length) return problems;
  const keys = [...new Set(list.flatMap((x) => x.labels.map((l) => l.schema)))];
  const schemas = new Map((await db.labelSchema.findMany({ where: { key: { in: keys } }, select: { id: true, key: true } })).map((s) => [s.key, s.id]));
  const users = new Map<string, string>();
  for (const name of new Set(list.flatMap((x) => x.labels.map((l) => l.annotator)))) users.set(name, (await ensureUser(db, name, "annotator")).id);
  for (const { trajectoryId, labels } of list) {
    await db.$transaction(async (tx) => {
      let written = 0;
      for (const l of labels) {
        const schemaId = schemas.get(l.schema);
        if (!schemaId) {
          problems.push(`trajectory ${trajectoryId}: label schema "${l.schema}" does not exist here; label skipped`);
          continue;
        }
        let forkPointId: string | null = null;
        if (l.target === "fork_point") {
          const fp = l.forkStepIndex === undefined ? null : await tx.forkPoint.findUnique({ where: { trajectoryId_stepIndex: { trajectoryId, stepIndex: l.forkStepIndex } }, select: { id: true } });
          if (!fp) {
            problems.push(`trajectory ${trajectoryId}: no fork point at step ${l.forkStepIndex ?? "?"}; label skipped`);
            continue;
          }
          forkPointId = fp.id;
        }
        const annotatorId = users.get(l.annotator)!;
        const key = targetKey(trajectoryId, l, forkPointId);
        const data = {
          targetType: l.target, trajectoryId, stepStart: l.stepStart ?? null, stepEnd: l.stepEnd ?? null, forkPointId, value: l.value, comment: l.comment ?? null,
          ...(l.createdAt ? { createdAt: new Date(l.createdAt) } : {}), ...(l.updatedAt ? { updatedAt: new Date(l.updatedAt) } : {}),
        };
        await tx.annotation.upsert({ where: { schemaId_annotatorId_targetKey: { schemaId, annotatorId, targetKey: key } }, create: { schemaId, annotatorId, targetKey: key, ...data }, update: {} });
        written++;
      }
      if (written) await tx.trajectory.update({ where: { id: trajectoryId }, data: { annotationCount: await tx.annotation.count({ where: { trajectoryId } }) } });
    });
  }
  return problems;
}
