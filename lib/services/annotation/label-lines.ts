// The lines of a label JSONL file, checked: each line is JSON of the label shape plus "annotator", resolved against
// the database (trajectory, schema, target, value). Errors name the line and the field. Shared by `labels import`
// and `labels import --as-suggestions` (where "annotator" names the suggestion's source).
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import type { NewLabel } from "../../db/repositories/annotation/labels.ts";
import { labelInputSchema } from "./label-input.ts";
import { LabelResolver } from "./resolve-label.ts";

const lineSchema = labelInputSchema.extend({
  annotator: z
    .string()
    .trim()
    .regex(/^[\w.@-]{1,64}$/, "annotator: 1–64 letters, digits, . _ @ -"),
});

export interface LineIssue {
  line: number;
  field: string;
  message: string;
}

export interface CheckedLine {
  line: number;
  annotator: string;
  label: Omit<NewLabel, "annotatorId">;
}

const MAX_ISSUES = 100;

export async function readLabelLines(db: Db, text: string): Promise<{ count: number; rows: CheckedLine[]; issues: LineIssue[] }> {
  const resolver = new LabelResolver(db);
  const issues: LineIssue[] = [];
  const rows: CheckedLine[] = [];
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
  return { count, rows, issues };
}
