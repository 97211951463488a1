// What curation and export work on: a trajectory as read back from the database (native shape plus its database
// identity and labels), a dataset item, and the provenance every exported row carries. Pure data, no I/O.
import { z } from "zod";
import type { LabelRef, TrajectoryInput } from "../trajectory.ts";

export const ITEM_KINDS = ["trajectory", "segment"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const EXPORT_FORMATS = ["openai", "trl", "sharegpt", "axolotl", "native", "labels-csv", "labels-jsonl"] as const;
export const CHAT_FORMATS = ["openai", "trl", "sharegpt", "axolotl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One label on a trajectory, named by schema key and annotator name (portable across databases). */
export interface ExportLabel {
  schema: string;
  annotator: string;
  targetType: string;
  stepStart: number | null;
  stepEnd: number | null;
  /** For fork-point labels: the parent's step index of the fork point. */
  forkStepIndex: number | null;
  value: string;
  comment: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A stored trajectory in native form (`trajectory`, lossless) with what export needs beside it. */
export interface StoredTrajectory {
  /** Database id. */
  dbId: string;
  trajectory: TrajectoryInput;
  /** Database id of the parent for an attempt. */
  parentDbId: string | null;
  /** Category of the trajectory's first error (labelled wins over detected), null when none. */
  errorCategory: string | null;
  labels: ExportLabel[];
}

/** A dataset item: a whole trajectory, or a recovery segment (parent context up to the fork + the attempt's own steps). */
export interface ItemRef {
  trajectoryId: string;
  kind: ItemKind;
}

export interface Provenance {
  trajectoryId: string;
  externalId: string | null;
  task: string;
  benchmark: string;
  run: string;
  kind: ItemKind;
  parentTrajectoryId: string | null;
  forkStep: number | null;
  attemptIndex: number | null;
  outcome: string;
  reward: number | null;
  labels: { schema: string; annotator: string; target: string; value: string }[];
  dataset: string;
  version: number | null;
  datasetHash: string | null;
}

export const exportLabelSchema = z.object({
  schema: z.string(),
  annotator: z.string(),
  targetType: z.string(),
  stepStart: z.number().int().nullable(),
  stepEnd: z.number().int().nullable(),
  forkStepIndex: z.number().int().nullable(),
  value: z.string(),
  comment: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** Labels captured in a frozen version's item (JSON text). */
export const capturedLabelsSchema = z.array(exportLabelSchema);

/** The native format's form of a label (undefined instead of null; `target` instead of `targetType`). */
export function labelRefOf(l: ExportLabel): LabelRef {
  const ref: LabelRef = {
    schema: l.schema,
    annotator: l.annotator,
    target: l.targetType as LabelRef["target"],
    value: l.value,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
  if (l.stepStart !== null) ref.stepStart = l.stepStart;
  if (l.stepEnd !== null) ref.stepEnd = l.stepEnd;
  if (l.forkStepIndex !== null) ref.forkStepIndex = l.forkStepIndex;
  if (l.comment !== null) ref.comment = l.comment;
  return ref;
}

/** The trajectory with these labels in place of its own (a frozen version exports the labels it captured). */
export function withLabels(t: StoredTrajectory, labels: ExportLabel[]): StoredTrajectory {
  const { labels: _own, ...rest } = t.trajectory;
  return { ...t, labels, trajectory: labels.length ? { ...rest, labels: labels.map(labelRefOf) } : rest };
}
