// `reterm labels import FILE --as-suggestions`: the same JSONL as labels, but each line becomes a suggestion from
// the source its "annotator" field names (imported:<name>, e.g. an LLM judge), never a label. Every line is checked
// first (errors name the line and field) and nothing is written unless all are good; re-importing the same file
// changes nothing; a line whose value or comment changed updates the suggestion (decisions keep what they decided on).
import { authorize, type ServiceContext } from "../../context.ts";
import { recordAudit } from "../../audit/record-audit.ts";
import { importedSource } from "../../../domain/annotation/suggestions.ts";
import { findImportedSuggestion, writeImportedSuggestions, type NewSuggestion } from "../../../db/repositories/annotation/suggestions.ts";
import { readLabelLines } from "../label-lines.ts";
import type { LabelImportIssue } from "../import-labels.ts";

export interface SuggestionImportResult {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  sources: string[];
  issues: LabelImportIssue[];
}

export async function importSuggestions(ctx: ServiceContext, text: string, opts: { file?: string } = {}): Promise<SuggestionImportResult> {
  // Suggestions are offered to every annotator: importing them is a researcher's job, like importing labels.
  authorize(ctx, "trajectory:import");
  const { count, rows, issues } = await readLabelLines(ctx.db, text);
  const result: SuggestionImportResult = {
    lines: count,
    created: 0,
    updated: 0,
    unchanged: 0,
    sources: [],
    issues: issues.map((x) => ({ ...x, ...(opts.file ? { file: opts.file } : {}) })),
  };
  if (issues.length) return result;
  const create: NewSuggestion[] = [];
  const update: { id: string; value: string; comment: string | null }[] = [];
  for (const r of rows) {
    const source = importedSource(r.annotator);
    const { schemaId, targetType, targetKey, trajectoryId, stepStart, stepEnd, forkPointId, value, comment } = r.label;
    const current = await findImportedSuggestion(ctx.db, schemaId, source, targetKey);
    if (!current) create.push({ source, schemaId, targetType, targetKey, trajectoryId, stepStart, stepEnd, forkPointId, value, comment });
    else if (current.value === value && current.comment === comment) result.unchanged++;
    else update.push({ id: current.id, value, comment });
  }
  await writeImportedSuggestions(ctx.db, create, update);
  result.created = create.length;
  result.updated = update.length;
  result.sources = [...new Set(rows.map((r) => importedSource(r.annotator)))].sort();
  if (result.created || result.updated)
    await recordAudit(ctx, {
      action: "suggestion.import",
      targetType: "suggestion-file",
      targetId: opts.file,
      details: { created: result.created, updated: result.updated, unchanged: result.unchanged, sources: result.sources },
    });
  return result;
}
