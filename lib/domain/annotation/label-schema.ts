/**
 * Label schemas as data: the zod shape of a schema (admin editor, JSON import/export) and the rules for values.
 * Changing a schema never rewrites labels: options are retired (kept readable) instead of removed.
 */
import { z } from "zod";

export const SCHEMA_KINDS = ["categorical", "ordinal", "boolean", "text", "ranking"] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];
export const TARGET_TYPES = ["trajectory", "step_range", "fork_point", "attempt"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const labelOptionSchema = z.object({
  value: z.string().trim().min(1).max(100),
  label: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  hotkey: z
    .string()
    .regex(/^[0-9a-z]$/, "a hotkey is one digit or lower-case letter")
    .optional(),
  /** Parent option value: categorical schemas may form a hierarchy. */
  parent: z.string().max(100).optional(),
  /** Retired options stay readable on old labels but cannot be chosen for new ones. */
  retired: z.boolean().optional(),
});
export type LabelOptionDef = z.infer<typeof labelOptionSchema>;

// Keys the labelling panel binds (j/k steps, u undo, s next schema; a/c/x accept, change, reject a suggestion);
// schema hotkeys must not take them.
const RESERVED_KEYS = new Set(["j", "k", "u", "s", "a", "c", "x"]);

export const labelSchemaInputSchema = z
  .object({
    key: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "key: lower-case letters, digits and dashes"),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(4000).nullish(),
    kind: z.enum(SCHEMA_KINDS),
    targets: z.array(z.enum(TARGET_TYPES)).min(1),
    options: z.array(labelOptionSchema).max(200).default([]),
    active: z.boolean().default(true),
  })
  .superRefine((s, ctx) => {
    const needsOptions = s.kind === "categorical" || s.kind === "ordinal";
    if (needsOptions && s.options.length === 0)
      ctx.addIssue({ code: "custom", path: ["options"], message: `a ${s.kind} schema needs at least one option` });
    const values = new Set<string>();
    const keys = new Set<string>();
    s.options.forEach((o, i) => {
      if (values.has(o.value)) ctx.addIssue({ code: "custom", path: ["options", i, "value"], message: `duplicate option "${o.value}"` });
      values.add(o.value);
      if (o.hotkey) {
        if (RESERVED_KEYS.has(o.hotkey))
          ctx.addIssue({ code: "custom", path: ["options", i, "hotkey"], message: `"${o.hotkey}" is reserved for the labelling keys` });
        if (keys.has(o.hotkey))
          ctx.addIssue({ code: "custom", path: ["options", i, "hotkey"], message: `hotkey "${o.hotkey}" is used twice` });
        keys.add(o.hotkey);
      }
    });
    s.options.forEach((o, i) => {
      if (o.parent && !values.has(o.parent))
        ctx.addIssue({ code: "custom", path: ["options", i, "parent"], message: `unknown parent "${o.parent}"` });
    });
  });
export type LabelSchemaInput = z.infer<typeof labelSchemaInputSchema>;

/** A stored schema as services see it. */
export interface LabelSchemaView {
  id: string;
  key: string;
  name: string;
  description: string | null;
  kind: SchemaKind;
  targets: TargetType[];
  options: LabelOptionDef[];
  active: boolean;
  updatedAt: string;
}

/**
 * Retired options: an edit that drops an option that labels may use keeps it, marked retired, so old labels stay
 * readable. Returns the options to store.
 */
export function mergeOptions(previous: readonly LabelOptionDef[], next: readonly LabelOptionDef[]): LabelOptionDef[] {
  const kept = new Set(next.map((o) => o.value));
  return [...next, ...previous.filter((o) => !kept.has(o.value)).map((o) => ({ ...o, retired: true, hotkey: undefined }))];
}

export const BOOLEAN_VALUES = ["true", "false"] as const;

/**
 * Normalise and check a label value against its schema; returns the stored value or an error message naming the
 * problem. Ranking values are JSON arrays of distinct trajectory ids, best first.
 */
export function checkLabelValue(
  schema: Pick<LabelSchemaView, "key" | "kind" | "options">,
  raw: unknown,
  opts: { allowRetired?: boolean } = {},
): { ok: true; value: string } | { ok: false; message: string } {
  switch (schema.kind) {
    case "categorical":
    case "ordinal": {
      const v = typeof raw === "number" ? String(raw) : raw;
      if (typeof v !== "string") return { ok: false, message: `value must be one of the ${schema.key} options` };
      const opt = schema.options.find((o) => o.value === v);
      if (!opt)
        return {
          ok: false,
          message: `"${v}" is not an option of ${schema.key} (${schema.options
            .filter((o) => !o.retired)
            .map((o) => o.value)
            .join(", ")})`,
        };
      if (opt.retired && !opts.allowRetired) return { ok: false, message: `"${v}" is retired in ${schema.key}` };
      return { ok: true, value: v };
    }
    case "boolean": {
      const v =
        raw === true || raw === "true" || raw === "yes" ? "true" : raw === false || raw === "false" || raw === "no" ? "false" : null;
      return v ? { ok: true, value: v } : { ok: false, message: `value of ${schema.key} must be true or false` };
    }
    case "text": {
      if (typeof raw !== "string" || !raw.trim()) return { ok: false, message: `value of ${schema.key} must be non-empty text` };
      if (raw.length > 4000) return { ok: false, message: `value of ${schema.key} is longer than 4000 characters` };
      return { ok: true, value: raw.trim() };
    }
    case "ranking": {
      const list = typeof raw === "string" ? safeJson(raw) : raw;
      const parsed = z.array(z.string().min(1).max(200)).min(2).safeParse(list);
      if (!parsed.success || new Set(parsed.data).size !== parsed.data.length)
        return { ok: false, message: `value of ${schema.key} must be a list of at least two distinct attempt ids, best first` };
      return { ok: true, value: JSON.stringify(parsed.data) };
    }
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

/** The scale order used by ordinal agreement: the schema's option order. */
export function optionOrder(schema: Pick<LabelSchemaView, "options">): string[] {
  return schema.options.map((o) => o.value);
}

/** A stored value as people read it: the option's label (Yes/No for a boolean schema without options), else itself. */
export function valueLabel(schema: Pick<LabelSchemaView, "kind" | "options">, value: string): string {
  const option = schema.options.find((o) => o.value === value);
  if (option) return option.label;
  if (schema.kind === "boolean") return value === "true" ? "Yes" : value === "false" ? "No" : value;
  return value;
}
