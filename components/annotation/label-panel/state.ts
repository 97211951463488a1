// The labelling panel's state as a pure reducer (no React): schema, target, chosen value, rationale, messages and the
// suggestion being changed. The target starts at the schema's default (the fork point, the first error step…) and
// follows it when the schema changes, until the annotator picks a target themselves.
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { resolveTarget, type Target, type TargetInput } from "@/lib/domain/annotation/targets";
import type { SchemaDefault } from "@/lib/services/annotation/labelling-view";
import type { SuggestionView } from "../label-api";

export type Mode = "range" | "fork" | "whole";

export interface PanelState {
  schemaIdx: number;
  cursor: number;
  range: [number, number];
  fork: number | null;
  mode: Mode | null;
  /** True once the annotator chose a target; until then the schema's default is used. */
  chosen: boolean;
  /** The step cursor (and the focused suggestion) starts at the default target (in a queue); else at step 0. */
  cursorFollows: boolean;
  pending: string | null;
  comment: string;
  help: boolean;
  keys: boolean;
  message: { error: boolean; text: string } | null;
  changing: SuggestionView | null;
  picked: string | null;
}

export interface PanelFacts {
  schemas: LabelSchemaView[];
  defaults: Record<string, SchemaDefault>;
  stepCount: number;
  forkSteps: number[];
  isAttempt: boolean;
  trajectoryId: string;
}

export type PanelAction =
  | { type: "schema"; idx: number }
  | { type: "nextSchema" }
  | { type: "move"; by: number }
  | { type: "cursor"; step: number }
  | { type: "rangeStart" }
  | { type: "rangeEnd" }
  | { type: "range"; range: [number, number] }
  | { type: "mode"; mode: Mode }
  | { type: "pick"; value: string | null }
  | { type: "comment"; text: string }
  | { type: "help"; open?: boolean }
  | { type: "keys" }
  | { type: "say"; text: string; error?: boolean }
  | { type: "escape" }
  | { type: "change"; suggestion: SuggestionView }
  | { type: "focusSuggestion"; key: string; step: number }
  | { type: "decided" }
  | { type: "saved" };

const modeOf = (d: SchemaDefault): Mode => (d.type === "fork_point" ? "fork" : d.type === "step_range" ? "range" : "whole");

/** Put the target on the default of schema `idx` (cursor at its step, so the step list shows it). */
function withDefault(s: PanelState, f: PanelFacts, idx: number): PanelState {
  const d = f.schemas[idx] ? f.defaults[f.schemas[idx].id] : undefined;
  if (!d) return { ...s, schemaIdx: idx, mode: null };
  const step = d.step ?? s.cursor;
  // The range starts on the target's step too, so switching to a step range from a fork point keeps the place.
  return {
    ...s,
    schemaIdx: idx,
    mode: modeOf(d),
    cursor: s.cursorFollows ? step : s.cursor,
    range: d.step != null ? [step, step] : s.range,
    fork: d.type === "fork_point" ? step : s.fork,
  };
}

export function initialPanelState(f: PanelFacts, opts: { keys: boolean; schemaIdx?: number; cursorFollows?: boolean }): PanelState {
  const base: PanelState = {
    schemaIdx: 0,
    cursor: 0,
    range: [0, 0],
    fork: null,
    mode: null,
    chosen: false,
    cursorFollows: opts.cursorFollows ?? false,
    pending: null,
    comment: "",
    help: false,
    keys: opts.keys,
    message: null,
    changing: null,
    picked: null,
  };
  return withDefault(base, f, opts.schemaIdx ?? 0);
}

export function panelReducer(f: PanelFacts) {
  const clamp = (n: number) => Math.max(0, Math.min(f.stepCount - 1, n));
  return (s: PanelState, a: PanelAction): PanelState => {
    switch (a.type) {
      case "schema":
      case "nextSchema": {
        const idx = a.type === "schema" ? a.idx : (s.schemaIdx + 1) % Math.max(1, f.schemas.length);
        const next = { ...s, pending: null };
        return s.chosen ? { ...next, schemaIdx: idx } : withDefault(next, f, idx);
      }
      case "move":
        return { ...s, cursor: clamp(s.cursor + a.by), picked: null };
      case "cursor":
        return { ...s, cursor: clamp(a.step) };
      case "rangeStart":
        return { ...s, range: [s.cursor, Math.max(s.cursor, s.range[1])], mode: "range", chosen: true };
      case "rangeEnd":
        return { ...s, range: [Math.min(s.range[0], s.cursor), s.cursor], mode: "range", chosen: true };
      case "range": {
        const [a0, b0] = [clamp(a.range[0]), clamp(a.range[1])];
        return { ...s, range: [Math.min(a0, b0), Math.max(a0, b0)], mode: "range", chosen: true };
      }
      case "mode": {
        const fork = a.mode === "fork" ? (f.forkSteps.includes(s.cursor) ? s.cursor : (s.fork ?? f.forkSteps[0] ?? null)) : s.fork;
        return { ...s, mode: a.mode, fork, chosen: true };
      }
      case "pick":
        return { ...s, pending: a.value };
      case "comment":
        return { ...s, comment: a.text };
      case "help":
        return { ...s, help: a.open ?? !s.help };
      case "keys":
        return { ...s, keys: !s.keys };
      case "say":
        return { ...s, message: { text: a.text, error: a.error ?? false } };
      case "escape":
        return { ...s, help: false, pending: null, changing: null };
      case "change": {
        const sug = a.suggestion;
        const idx = f.schemas.findIndex((x) => x.id === sug.schemaId);
        const at = sug.stepStart ?? 0;
        const target: Partial<PanelState> =
          sug.targetType === "step_range"
            ? { range: [at, sug.stepEnd ?? at], mode: "range" }
            : sug.targetType === "fork_point"
              ? { cursor: at, fork: at, mode: "fork" }
              : { mode: "whole" };
        return { ...s, ...target, schemaIdx: idx >= 0 ? idx : s.schemaIdx, chosen: true, changing: sug, pending: null };
      }
      case "focusSuggestion":
        return { ...s, picked: a.key, cursor: clamp(a.step) };
      case "decided":
        return { ...s, picked: null, changing: null, pending: null };
      case "saved":
        return { ...s, pending: null, comment: "" };
    }
  };
}

/** The mode the schema allows: the chosen one when it may, else steps for step-level schemas, else the whole. */
export function effectiveMode(s: PanelState, schema: LabelSchemaView | undefined, isAttempt: boolean): Mode {
  if (!schema) return "whole";
  const m = s.mode;
  if (m === "range" && schema.targets.includes("step_range")) return "range";
  if (m === "fork" && schema.targets.includes("fork_point") && s.fork !== null) return "fork";
  if (m === "whole" && (schema.targets.includes("trajectory") || (isAttempt && schema.targets.includes("attempt")))) return "whole";
  return schema.targets.includes("step_range") && !(isAttempt && schema.targets.includes("attempt")) ? "range" : "whole";
}

export function targetInputOf(s: PanelState, mode: Mode): TargetInput | undefined {
  return mode === "range" ? { steps: s.range } : mode === "fork" && s.fork !== null ? { forkStep: s.fork } : undefined;
}

export function currentTarget(
  s: PanelState,
  f: PanelFacts,
): { input: TargetInput | undefined; target: { ok: true; target: Target } | { ok: false; message: string } | null; isDefault: boolean } {
  const schema = f.schemas[s.schemaIdx];
  if (!schema) return { input: undefined, target: null, isDefault: false };
  const facts = { trajectoryId: f.trajectoryId, stepCount: f.stepCount, isAttempt: f.isAttempt };
  const input = targetInputOf(s, effectiveMode(s, schema, f.isAttempt));
  const target = resolveTarget(input, facts, schema.targets);
  const d = f.defaults[schema.id];
  const dt = d ? resolveTarget(d.input, facts, schema.targets) : null;
  return { input, target, isDefault: !!(target.ok && dt?.ok && dt.target.key === target.target.key) };
}
