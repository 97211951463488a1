// `reterm labels import FILE`: JSONL, one label per line. Every line is checked first (errors name the line and the
// field); nothing is written unless all lines are good. Re-importing the same file changes nothing; a line whose
// value or comment differs from the stored label updates it (with history).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { ensureUser, findUserByName } from "../../db/repositories/users.ts";
import { findLabelByTarget, insertLabel, updateLabelIfVersion, type NewLabel } from "../../db/repositories/annotation/labels.ts";
import { labelInputSchema } from "./label-input.ts";
import { LabelResolver } from "./resolve-label.ts";

const lineSchema = labelInputSchema.extend({ annotator: z.string().trim().regex(/^[\w.@-]{1,64}$/, "annotator: 1–64 letters, digits, . _ @ -") });

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

const MAX_ISSUES = 100;

export async function importLabels(ctx: ServiceContext, text: string, opts: { file?: string } = {}): Promise<LabelImportResult> {
  authorize(ctx, "annotation:write");
  // Writing labels in other people's names is a researcher's import, not an annotator's own labelling.
  authorize(ctx, "trajectory:import");
  const resolver = new LabelResolver(ctx.db);
  const issues: LabelImportIssue[] = [];
  const rows: { line: number; annotator: string; label: Omit<NewLabel, "annotatorId"> }[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  let count = 0;
  for (let i = 0; i < lines.length && issues.length < MAX_ISSUES; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    count++;
    const line = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      issues.push({ line, field: "(line)", message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      for (const is of parsed.error.issues) issues.push({ line, field: is.path.join(".") || "(line)", message: is.message });
      continue;
    }
    const r = await resolver.resolve(parsed.data);
    if (!r.ok) {
      issues.push({ line, field: r.field, message: r.message });
      continue;
    }
    const key = `${r.label.schemaId}|${parsed.data.annotator}|${r.label.targetKey}`;
    const dup = seen.get(key);
    if (dup) {
      issues.push({ line, field: "target", message: `same annotator, schema and target as line ${dup}` });
      continue;
    }
    seen.set(key, line);
    rows.push({ line, annotator: parsed.data.annotator, label: r.label });
  }
  const result: LabelImportResult = { lines: count, created: 0, updated: 0, unchanged: 0, annotatorsCreated: [], issues: issues.map((x) => ({ ...x, ...(opts.file ? { file: opts.file } : {}) })) };
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
    } else if (await updateLabelIfVersion(ctx.db, current.id, current.version, { value: r.label.value, comment: r.label.comment }, ctx.actor.id)) {
      result.updated++;
    } else {
      result.issues.push({ line: r.line, field: "(line)", message: "the label changed while importing; run the import again" });
    }
  }
  if (result.created || result.updated) await recordAudit(ctx, { action: "label.import", targetType: "label-file", targetId: opts.file, details: { created: result.created, updated: result.updated, unchanged: result.unchanged } });
  return result;
}
