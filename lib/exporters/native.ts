// The project's native JSONL (reterm.trajectory.v1), lossless: each line is a trajectory exactly as the importer
// takes it (steps, recording, fork link, labels) plus a top-level "provenance" the importer ignores. A recovery
// segment's parent is written once, before its first attempt, so the fork link survives a re-import.
import { z } from "zod";
import { trajectorySchema } from "../domain/trajectory.ts";
import type { StoredTrajectory } from "../domain/curation/types.ts";
import { provenanceSchema } from "./provenance.ts";
import type { ExportItem, RowWriter } from "./types.ts";

export const nativeRowSchema = trajectorySchema.extend({ provenance: provenanceSchema.extend({ role: z.enum(["item", "context"]) }) });
export type NativeRow = z.input<typeof nativeRowSchema>;

function row(t: StoredTrajectory, provenance: NativeRow["provenance"]): string {
  return JSON.stringify({ ...t.trajectory, provenance }) + "\n";
}

/** A fresh writer per export: it remembers which parents it already wrote. */
export function createNativeWriter(): RowWriter {
  const written = new Set<string>();
  return {
    format: "native",
    extension: "jsonl",
    contentType: "application/x-ndjson",
    lines(e: ExportItem) {
      const out: string[] = [];
      if (e.parent && !written.has(e.parent.dbId)) {
        written.add(e.parent.dbId);
        const p = e.parent.trajectory;
        out.push(
          row(e.parent, {
            ...e.provenance,
            role: "context",
            trajectoryId: e.parent.dbId,
            externalId: p.id ?? null,
            kind: "trajectory",
            parentTrajectoryId: null,
            forkStep: null,
            attemptIndex: null,
            outcome: p.outcome,
            reward: p.reward ?? null,
            labels: e.parent.labels.map((l) => ({ schema: l.schema, annotator: l.annotator, target: l.targetType, value: l.value })),
          }),
        );
      }
      if (!written.has(e.item.dbId)) {
        written.add(e.item.dbId);
        out.push(row(e.item, { ...e.provenance, role: "item" }));
      }
      return out;
    },
  };
}
