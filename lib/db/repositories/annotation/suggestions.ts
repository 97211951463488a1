// Suggestions, stored apart from labels: imported ones in Suggestion, the detector's read from DetectedError
// (each finding is a suggestion of its category on its step), and one SuggestionDecision per annotator and suggestion.
// Nothing here touches Annotation: labels made by accepting are written by the labels repository (insertLabel).
import type { Db } from "../../client.ts";
import type { LabelTargetRow } from "./target-row.ts";
import { DETECTOR_SOURCE, parseSuggestionKey, type DecisionCount } from "../../../domain/annotation/suggestions.ts";

export interface SuggestionView {
  /** det:<DetectedError id> or sug:<Suggestion id> */
  key: string;
  source: string;
  schemaId: string;
  targetType: string;
  targetKey: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  value: string;
  /** What the source said: the detector's signal and excerpt, or the imported comment. */
  message: string | null;
  confidence: number | null;
}

export interface DecisionView {
  id: string;
  suggestionKey: string;
  annotatorId: string;
  decision: string;
  suggestedValue: string;
  value: string | null;
  annotationId: string | null;
  createdAt: string;
}

type DetectedRow = {
  id: string;
  trajectoryId: string;
  stepIndex: number;
  category: string;
  signal: string;
  excerpt: string | null;
  confidence: number;
};
type ImportedRow = {
  id: string;
  source: string;
  schemaId: string;
  targetType: string;
  targetKey: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  value: string;
  comment: string | null;
};

const detectedSelect = {
  id: true,
  trajectoryId: true,
  stepIndex: true,
  category: true,
  signal: true,
  excerpt: true,
  confidence: true,
} as const;
const importedSelect = {
  id: true,
  source: true,
  schemaId: true,
  targetType: true,
  targetKey: true,
  trajectoryId: true,
  stepStart: true,
  stepEnd: true,
  value: true,
  comment: true,
} as const;

/** The detector's finding as a suggestion of the error-category schema on its one step. */
function fromDetected(r: DetectedRow, errorSchemaId: string): SuggestionView {
  return {
    key: `det:${r.id}`,
    source: DETECTOR_SOURCE,
    schemaId: errorSchemaId,
    targetType: "step_range",
    targetKey: `steps:${r.trajectoryId}:${r.stepIndex}-${r.stepIndex}`,
    trajectoryId: r.trajectoryId,
    stepStart: r.stepIndex,
    stepEnd: r.stepIndex,
    value: r.category,
    message: r.excerpt ? `${r.signal}: ${r.excerpt}` : r.signal,
    confidence: r.confidence,
  };
}

function fromImported(r: ImportedRow): SuggestionView {
  return {
    key: `sug:${r.id}`,
    source: r.source,
    schemaId: r.schemaId,
    targetType: r.targetType,
    targetKey: r.targetKey,
    trajectoryId: r.trajectoryId,
    stepStart: r.stepStart,
    stepEnd: r.stepEnd,
    value: r.value,
    message: r.comment,
    confidence: null,
  };
}

/**
 * Suggestions on one trajectory that `annotatorId` has not decided yet, in step order. Detector suggestions need
 * the error-category schema's id (null: the schema is gone or inactive, so the detector offers nothing).
 */
export async function listPendingSuggestions(
  db: Db,
  trajectoryId: string,
  annotatorId: string,
  errorSchemaId: string | null,
  limit = 500,
): Promise<SuggestionView[]> {
  const decided = { none: { annotatorId } };
  const [detected, imported] = await Promise.all([
    errorSchemaId
      ? db.detectedError.findMany({
          where: { trajectoryId, decisions: decided },
          orderBy: [{ stepIndex: "asc" }, { id: "asc" }],
          take: limit,
          select: detectedSelect,
        })
      : [],
    db.suggestion.findMany({
      where: { trajectoryId, decisions: decided },
      orderBy: [{ stepStart: "asc" }, { id: "asc" }],
      take: limit,
      select: importedSelect,
    }),
  ]);
  const all = [...detected.map((r) => fromDetected(r, errorSchemaId!)), ...imported.map(fromImported)];
  return all.sort(compareSuggestions).slice(0, limit);
}

/** The list order: whole-trajectory suggestions (no step) first, then by step; ties: detector before imported sources. */
export function compareSuggestions(
  a: Pick<SuggestionView, "stepStart" | "stepEnd" | "source" | "key">,
  b: Pick<SuggestionView, "stepStart" | "stepEnd" | "source" | "key">,
): number {
  return (
    (a.stepStart ?? -1) - (b.stepStart ?? -1) ||
    (a.stepEnd ?? -1) - (b.stepEnd ?? -1) ||
    a.source.localeCompare(b.source) ||
    a.key.localeCompare(b.key)
  );
}

export async function findSuggestion(db: Db, key: string, errorSchemaId: string | null): Promise<SuggestionView | null> {
  const ref = parseSuggestionKey(key);
  if (!ref) return null;
  if (ref.kind === "detector") {
    if (!errorSchemaId) return null;
    const r = await db.detectedError.findUnique({ where: { id: ref.id }, select: detectedSelect });
    return r ? fromDetected(r, errorSchemaId) : null;
  }
  const r = await db.suggestion.findUnique({ where: { id: ref.id }, select: importedSelect });
  return r ? fromImported(r) : null;
}

export interface NewDecision {
  suggestionKey: string;
  trajectoryId: string;
  annotatorId: string;
  source: string;
  schemaId: string;
  suggestedValue: string;
  decision: string;
  value: string | null;
}

function toDecisionView(r: {
  id: string;
  suggestionKey: string;
  annotatorId: string;
  decision: string;
  suggestedValue: string;
  value: string | null;
  annotationId: string | null;
  createdAt: Date;
}): DecisionView {
  return { ...r, createdAt: r.createdAt.toISOString() };
}

/** The row to insert for a decision: the key is split back into the foreign key it names (so deletes cascade). */
export function decisionRow(d: NewDecision, annotationId: string | null) {
  const ref = parseSuggestionKey(d.suggestionKey);
  if (!ref) throw new Error(`bad suggestion key ${d.suggestionKey}`);
  return {
    ...d,
    annotationId,
    suggestionId: ref.kind === "imported" ? ref.id : null,
    detectedErrorId: ref.kind === "detector" ? ref.id : null,
  };
}

/** Record a decision without a label (rejected). Throws Prisma P2002 when this annotator already decided. */
export async function insertDecision(db: Db, d: NewDecision): Promise<DecisionView> {
  return toDecisionView(await db.suggestionDecision.create({ data: decisionRow(d, null) }));
}

export async function findDecision(db: Db, suggestionKey: string, annotatorId: string): Promise<DecisionView | null> {
  const r = await db.suggestionDecision.findUnique({ where: { suggestionKey_annotatorId: { suggestionKey, annotatorId } } });
  return r ? toDecisionView(r) : null;
}

/** Remove one decision (undo): the suggestion is offered to that annotator again. */
export async function deleteDecision(db: Db, id: string): Promise<boolean> {
  return (await db.suggestionDecision.deleteMany({ where: { id } })).count === 1;
}

/** Decisions grouped by suggested value and decision, for one source and schema (precision). */
export async function countDecisions(db: Db, source: string, schemaId: string): Promise<DecisionCount[]> {
  const rows = await db.suggestionDecision.groupBy({
    by: ["suggestedValue", "decision"],
    where: { source, schemaId },
    _count: { _all: true },
  });
  return rows.map((r) => ({ value: r.suggestedValue, decision: r.decision, n: r._count._all }));
}

/** The sources that have suggestions or decisions (detector first). */
export async function listSuggestionSources(db: Db): Promise<string[]> {
  const [imported, decided] = await Promise.all([
    db.suggestion.findMany({ distinct: ["source"], select: { source: true } }),
    db.suggestionDecision.findMany({ distinct: ["source"], select: { source: true } }),
  ]);
  const rest = [...new Set([...imported, ...decided].map((r) => r.source))].filter((s) => s !== DETECTOR_SOURCE).sort();
  return [DETECTOR_SOURCE, ...rest];
}

// --- imported suggestions ---

export interface NewSuggestion extends LabelTargetRow {
  source: string;
  schemaId: string;
  value: string;
  comment: string | null;
}

export async function findImportedSuggestion(
  db: Db,
  schemaId: string,
  source: string,
  targetKey: string,
): Promise<{ id: string; value: string; comment: string | null } | null> {
  return db.suggestion.findUnique({
    where: { schemaId_source_targetKey: { schemaId, source, targetKey } },
    select: { id: true, value: true, comment: true },
  });
}

/**
 * Write a checked import in one transaction: new suggestions created, changed ones updated (a decision already made
 * keeps the value it was made on, so precision is not rewritten).
 */
export async function writeImportedSuggestions(
  db: Db,
  create: NewSuggestion[],
  update: { id: string; value: string; comment: string | null }[],
): Promise<void> {
  await db.$transaction(async (tx) => {
    if (create.length) await tx.suggestion.createMany({ data: create });
    for (const u of update) await tx.suggestion.update({ where: { id: u.id }, data: { value: u.value, comment: u.comment } });
  });
}
