// A failing step's error signature: its decisive line, normalised so that the same failure groups together whatever
// the path, number or name in it. Derived from what the error detector flags (its signals decide WHICH steps
// failed); this module only decides what the failure WAS.
import { detectorText, detectStepError, type DetectedErrorSuggestion } from "../error-detector.ts";
import { sha256 } from "../hash.ts";
import type { ErrorCategory } from "../taxonomy.ts";
import { findDecisiveLine } from "./decisive-line.ts";
import { normalizeLine } from "./normalize.ts";

export interface ErrorSignature {
  stepIndex: number;
  /** Identity of the mode: a hash of kind and template. */
  templateHash: string;
  /** The normalised decisive line (`ModuleNotFoundError: No module named '<name>'`). */
  template: string;
  /** The concrete values the template abstracted, in order (`numpy`). */
  values: string[];
  /** Which matcher chose the line, or the detector's signal when none did. */
  kind: string;
  /** Suggested error category (a suggestion, never a label). */
  category: ErrorCategory;
}

/** Characters of the stored hash: 64 bits, collisions negligible at 10^6 distinct templates. */
const HASH_CHARS = 16;

export function templateHashOf(kind: string, template: string): string {
  return sha256(`${kind}\n${template}`).slice(0, HASH_CHARS);
}

/**
 * The signature of one step, given the detector's finding for it (or null when the detector finds nothing: no
 * evidence, no signature). `text` is the output as the detector read it.
 */
export function signatureOf(detected: DetectedErrorSuggestion, text: string): ErrorSignature {
  const decisive = findDecisiveLine(text);
  const kind = decisive?.kind ?? detected.signal;
  // Without a line that stands out, the detector's excerpt is what it saw (for an exit code: `exit N: last line`).
  const { template, values } = normalizeLine(decisive?.line ?? detected.excerpt);
  return {
    stepIndex: detected.stepIndex,
    templateHash: templateHashOf(kind, template),
    template,
    values,
    kind,
    category: decisive?.category ?? detected.category,
  };
}

/** Signature of a step from its raw output and exit code (null when the detector finds no error in it). */
export function stepSignature(step: { observation?: string | null; exitCode?: number | null }, stepIndex: number): ErrorSignature | null {
  const text = detectorText(step.observation);
  const detected = detectStepError({ observation: step.observation ?? undefined, exitCode: step.exitCode ?? undefined }, stepIndex, text);
  return detected ? signatureOf(detected, text) : null;
}
