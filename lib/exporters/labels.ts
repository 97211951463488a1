// Labels as CSV and JSONL: one row per label (annotator, schema, target, value, comment, timestamps) with the
// item's provenance flattened beside it, so a label can be traced to the dataset version it was frozen into.
import { z } from "zod";
import type { ExportItem, RowWriter } from "./types.ts";
import { csvLine } from "../domain/csv.ts";

export const labelRowSchema = z
  .object({
    trajectoryId: z.string().min(1),
    externalId: z.string().nullable(),
    task: z.string(),
    run: z.string(),
    annotator: z.string().min(1),
    schema: z.string().min(1),
    targetType: z.enum(["trajectory", "step_range", "fork_point", "attempt"]),
    stepStart: z.number().int().nullable(),
    stepEnd: z.number().int().nullable(),
    forkStep: z.number().int().nullable(),
    value: z.string(),
    comment: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    dataset: z.string().min(1),
    version: z.number().int().positive().nullable(),
    datasetHash: z.string().nullable(),
  })
  .strict();
export type LabelRow = z.infer<typeof labelRowSchema>;
export const LABEL_COLUMNS = Object.keys(labelRowSchema.shape) as (keyof LabelRow)[];

export function toLabelRows(e: ExportItem): LabelRow[] {
  const p = e.provenance;
  return e.item.labels.map((l) => ({
    trajectoryId: p.trajectoryId,
    externalId: p.externalId,
    task: p.task,
    run: p.run,
    annotator: l.annotator,
    schema: l.schema,
    targetType: l.targetType as LabelRow["targetType"],
    stepStart: l.stepStart,
    stepEnd: l.stepEnd,
    forkStep: l.forkStepIndex,
    value: l.value,
    comment: l.comment,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
    dataset: p.dataset,
    version: p.version,
    datasetHash: p.datasetHash,
  }));
}

export const labelsCsvWriter: RowWriter = {
  format: "labels-csv",
  extension: "csv",
  contentType: "text/csv; charset=utf-8",
  header: LABEL_COLUMNS.join(",") + "\r\n",
  lines: (e) => toLabelRows(e).map((r) => csvLine(LABEL_COLUMNS.map((c) => r[c]))),
};

export const labelsJsonlWriter: RowWriter = {
  format: "labels-jsonl",
  extension: "jsonl",
  contentType: "application/x-ndjson",
  lines: (e) => toLabelRows(e).map((r) => JSON.stringify(r) + "\n"),
};
