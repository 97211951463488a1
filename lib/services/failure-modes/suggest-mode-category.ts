// "Label from here": offer a failure mode's suggested error category on every one of its steps (within the filter)
// as suggestions from the source `imported:failure-modes` — never as labels. Annotators accept, change or reject
// them like any suggestion; doing it twice changes nothing.
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { detectorSchema } from "../annotation/suggestions/error-schema.ts";
import { importedSource } from "../../domain/annotation/suggestions.ts";
import { findModeSteps, findSuggestionsByKey } from "../../db/repositories/failure-modes/mode-steps.ts";
import { writeImportedSuggestions, type NewSuggestion } from "../../db/repositories/annotation/suggestions.ts";
import type { FailureModeFilter } from "../../validation/failure-modes-params.ts";

export const FAILURE_MODE_SOURCE = importedSource("failure-modes");
/** A mode's steps suggested at once; a larger mode is narrowed with the filters first. */
export const MAX_MODE_STEPS = 5000;

export interface ModeSuggestionResult {
  steps: number;
  created: number;
  updated: number;
  unchanged: number;
  /** True when the mode had more steps in scope than were suggested. */
  capped: boolean;
}

export async function suggestModeCategory(ctx: ServiceContext, filter: FailureModeFilter, mode: string): Promise<ModeSuggestionResult> {
  // Suggestions are offered to every annotator, so writing them is a researcher's job, as importing them is.
  authorize(ctx, "trajectory:import");
  const schema = await detectorSchema(ctx.db);
  if (!schema)
    throw new AppError("CONFLICT", "The error-category schema is not active for step ranges, so there is nothing to suggest into.");
  const steps = await findModeSteps(ctx.db, filter, mode, MAX_MODE_STEPS + 1);
  if (!steps.length) throw new AppError("NOT_FOUND", "No step of this failure mode within the filter.");
  const capped = steps.length > MAX_MODE_STEPS;
  const chosen = steps.slice(0, MAX_MODE_STEPS);
  const allowed = new Set(schema.options.map((o) => o.value));
  const keyOf = (s: { trajectoryId: string; stepIndex: number }) => `steps:${s.trajectoryId}:${s.stepIndex}-${s.stepIndex}`;
  const existing = await findSuggestionsByKey(ctx.db, schema.id, FAILURE_MODE_SOURCE, chosen.map(keyOf));
  const create: NewSuggestion[] = [];
  const update: { id: string; value: string; comment: string | null }[] = [];
  let unchanged = 0;
  for (const s of chosen) {
    if (!allowed.has(s.category)) continue;
    const key = keyOf(s);
    const current = existing.get(key);
    const comment = "the failure mode's suggested category";
    if (!current)
      create.push({
        source: FAILURE_MODE_SOURCE,
        schemaId: schema.id,
        targetType: "step_range",
        targetKey: key,
        trajectoryId: s.trajectoryId,
        stepStart: s.stepIndex,
        stepEnd: s.stepIndex,
        forkPointId: null,
        value: s.category,
        comment,
      });
    else if (current.value === s.category) unchanged++;
    else update.push({ id: current.id, value: s.category, comment });
  }
  await writeImportedSuggestions(ctx.db, create, update);
  if (create.length || update.length)
    await recordAudit(ctx, {
      action: "suggestion.failure-mode",
      targetType: "failure-mode",
      targetId: mode,
      details: { created: create.length, updated: update.length, unchanged },
    });
  return { steps: chosen.length, created: create.length, updated: update.length, unchanged, capped };
}
