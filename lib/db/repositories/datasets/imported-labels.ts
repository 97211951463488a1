// Labels that arrive inside native trajectories (exported datasets carry them) become Annotation rows again: the
// schema is found by key, the annotator by name (created as an annotator when new), fork-point labels by step.
import type { Db } from "../../client.ts";
import type { LabelRef } from "../../../domain/trajectory.ts";
import { ensureUser } from "../accounts/users.ts";

export interface ImportedLabels {
  trajectoryId: string;
  labels: LabelRef[];
}

// The annotation domain's canonical target keys (lib/domain/annotation/targets.ts), so an imported label and one made
// in the UI on the same target are the same label.
function targetKey(trajectoryId: string, l: LabelRef): string {
  switch (l.target) {
    case "trajectory":
      return `traj:${trajectoryId}`;
    case "attempt":
      return `attempt:${trajectoryId}`;
    case "step_range":
      return `steps:${trajectoryId}:${l.stepStart ?? 0}-${l.stepEnd ?? l.stepStart ?? 0}`;
    case "fork_point":
      return `fork:${trajectoryId}:${l.forkStepIndex ?? 0}`;
  }
}

/** Write the labels; returns human-readable problems for labels that could not be attached (unknown schema, fork point). */
export async function attachImportedLabels(db: Db, list: ImportedLabels[]): Promise<string[]> {
  const problems: string[] = [];
  if (!list.length) return problems;
  const keys = [...new Set(list.flatMap((x) => x.labels.map((l) => l.schema)))];
  const schemas = new Map(
    (await db.labelSchema.findMany({ where: { key: { in: keys } }, select: { id: true, key: true } })).map((s) => [s.key, s.id]),
  );
  const users = new Map<string, string>();
  for (const name of new Set(list.flatMap((x) => x.labels.map((l) => l.annotator))))
    users.set(name, (await ensureUser(db, name, "annotator")).id);
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
          const fp =
            l.forkStepIndex === undefined
              ? null
              : await tx.forkPoint.findUnique({
                  where: { trajectoryId_stepIndex: { trajectoryId, stepIndex: l.forkStepIndex } },
                  select: { id: true },
                });
          if (!fp) {
            problems.push(`trajectory ${trajectoryId}: no fork point at step ${l.forkStepIndex ?? "?"}; label skipped`);
            continue;
          }
          forkPointId = fp.id;
        }
        const annotatorId = users.get(l.annotator)!;
        const key = targetKey(trajectoryId, l);
        const [stepStart, stepEnd] =
          l.target === "fork_point" ? [l.forkStepIndex ?? null, l.forkStepIndex ?? null] : [l.stepStart ?? null, l.stepEnd ?? null];
        const data = {
          targetType: l.target,
          trajectoryId,
          stepStart,
          stepEnd,
          forkPointId,
          value: l.value,
          comment: l.comment ?? null,
          ...(l.createdAt ? { createdAt: new Date(l.createdAt) } : {}),
          ...(l.updatedAt ? { updatedAt: new Date(l.updatedAt) } : {}),
        };
        // Only missing labels are created (a re-import, or a re-run after a killed import, changes nothing), each
        // with its "create" event in the label history, as labels made in the UI have.
        if (
          await tx.annotation.findUnique({
            where: { schemaId_annotatorId_targetKey: { schemaId, annotatorId, targetKey: key } },
            select: { id: true },
          })
        )
          continue;
        const created = await tx.annotation.create({ data: { schemaId, annotatorId, targetKey: key, ...data }, select: { id: true } });
        await tx.annotationEvent.create({
          data: {
            annotationId: created.id,
            trajectoryId,
            schemaId,
            targetKey: key,
            actorId: annotatorId,
            action: "create",
            newValue: l.value,
            newComment: l.comment ?? null,
            version: 1,
          },
        });
        written++;
      }
      if (written)
        await tx.trajectory.update({
          where: { id: trajectoryId },
          data: { annotationCount: await tx.annotation.count({ where: { trajectoryId } }) },
        });
    });
  }
  return problems;
}
