// `reterm labels import FILE`: JSONL, one label per line. Every line is checked first (errors name the line and the
// field); nothing is written unless all lines are good. Re-importing the same file changes nothing; a line whose
// value or comment differs from the stored label updates it (with history).
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { ensureUser, findUserByName } from "../../db/repositories/accounts/users.ts";
import { findLabelByTarget, insertLabel, updateLabelIfVersion } from "../../db/repositories/annotation/labels.ts";
import { readLabelLines } from "./label-lines.ts";

export interface LabelImportIssue {
  file?: string;
  line: number;
  field: string;
  message: string;
}

export interface LabelImportResult {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  annotatorsCreated: string[];
  issues: LabelImportIssue[];
}

export async function importLabels(ctx: ServiceContext, text: string, opts: { file?: string } = {}): Promise<LabelImportResult> {
  authorize(ctx, "annotation:write");
  // Writing labels in other people's names is a researcher's import, not an annotator's own labelling.
  authorize(ctx, "trajectory:import");
  const { count, rows, issues } = await readLabelLines(ctx.db, text);
  const result: LabelImportResult = {
    lines: count,
    created: 0,
    updated: 0,
    unchanged: 0,
    annotatorsCreated: [],
    issues: issues.map((x) => ({ ...x, ...(opts.file ? { file: opts.file } : {}) })),
  };
  if (issues.length) return result;
  const users = new Map<string, string>();
  for (const r of rows) {
    let annotatorId = users.get(r.annotator);
    if (!annotatorId) {
      const existing = await findUserByName(ctx.db, r.annotator);
      if (!existing) result.annotatorsCreated.push(r.annotator);
      annotatorId = (existing ?? (await ensureUser(ctx.db, r.annotator, "annotator"))).id;
      users.set(r.annotator, annotatorId);
    }
    const current = await findLabelByTarget(ctx.db, r.label.schemaId, annotatorId, r.label.targetKey);
    if (!current) {
      await insertLabel(ctx.db, { ...r.label, annotatorId }, ctx.actor.id);
      result.created++;
    } else if (current.value === r.label.value && current.comment === r.label.comment) {
      result.unchanged++;
    } else if (
      await updateLabelIfVersion(ctx.db, current.id, current.version, { value: r.label.value, comment: r.label.comment }, ctx.actor.id)
    ) {
      result.updated++;
    } else {
      result.issues.push({ line: r.line, field: "(line)", message: "the label changed while importing; run the import again" });
    }
  }
  if (result.created || result.updated)
    await recordAudit(ctx, {
      action: "label.import",
      targetType: "label-file",
      targetId: opts.file,
      details: { created: result.created, updated: result.updated, unchanged: result.unchanged },
    });
  return result;
}
