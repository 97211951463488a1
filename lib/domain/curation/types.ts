// What curation and export work on: a trajectory as read back from the database (native shape plus its database
// identity and labels), a dataset item, and the provenance every exported row carries. Pure data, no I/O.
import type { TrajectoryInput } from "../trajectory.ts";

export const ITEM_KINDS = ["trajectory", "segment"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const EXPORT_FORMATS = ["openai", "sharegpt", "native", "labels-csv", "labels-jsonl"] as const;
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
