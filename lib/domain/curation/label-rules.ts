// Label rules: which trajectories a dataset takes by their labels. A rule is one or more conditions (all must hold),
// each on one label schema, read from any single label, the gold (adjudicated) label, or the annotators' majority /
// unanimous agreement on a target; optionally limited to one annotation queue's items. Pure: no I/O.
import { z } from "zod";

export const LABEL_SOURCES = ["any", "gold", "majority", "all"] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

export const labelConditionSchema = z
  .object({
    schema: z.string().min(1, "must name a label schema key"),
    values: z.array(z.string().min(1)).optional(),
    min: z.number().optional(),
    targetType: z.enum(["trajectory", "step_range", "fork_point", "attempt"]).optional(),
    /** Only this annotator's labels (with `by: "any"`). */
    annotator: z.string().min(1).optional(),
    /** any: one label matches; gold: the adjudicated label matches; majority / all: more than half / every annotator of a target. */
    by: z.enum(LABEL_SOURCES, { message: `must be one of ${LABEL_SOURCES.join(", ")}` }).default("any"),
    /** For majority / all: a target needs at least this many labels (default: the queue's labels per item, else 1). */
    minAnnotators: z.number().int().positive().optional(),
  })
  .refine((r) => r.values?.length || r.min !== undefined, { message: "needs values or a minimum" })
  .refine((r) => !r.annotator || r.by === "any", { message: "an annotator can only be named for by: any", path: ["annotator"] });
export type LabelCondition = z.infer<typeof labelConditionSchema>;

/** One label (or gold label) as the matcher sees it. */
export interface LabelRow {
  trajectoryId: string;
  targetKey: string;
  value: string;
}

export function valueMatches(c: Pick<LabelCondition, "values" | "min">, value: string): boolean {
  if (c.values?.length && c.values.includes(value)) return true;
  // Ordinal values are stored as strings: compare numerically here so both databases agree.
  return c.min !== undefined && value.trim() !== "" && Number.isFinite(Number(value)) && Number(value) >= c.min;
}

/**
 * Trajectories whose labels satisfy the condition. `rows` are the condition's schema's labels (gold labels for
 * `by: "gold"`), already limited to its target type, annotator and queue.
 */
export function matchCondition(c: LabelCondition, rows: LabelRow[], defaultMinAnnotators = 1): Set<string> {
  if (c.by === "any" || c.by === "gold") return new Set(rows.filter((r) => valueMatches(c, r.value)).map((r) => r.trajectoryId));
  const need = c.minAnnotators ?? defaultMinAnnotators;
  const targets = new Map<string, { trajectoryId: string; n: number; ok: number }>();
  for (const r of rows) {
    const t = targets.get(r.targetKey) ?? { trajectoryId: r.trajectoryId, n: 0, ok: 0 };
    t.n++;
    if (valueMatches(c, r.value)) t.ok++;
    targets.set(r.targetKey, t);
  }
  const out = new Set<string>();
  for (const t of targets.values()) {
    if (t.n < need) continue;
    if (c.by === "all" ? t.ok === t.n : t.ok * 2 > t.n) out.add(t.trajectoryId);
  }
  return out;
}

/**
 * The CLI's spelling of a condition: `[gold:|majority:|all:]SCHEMA=V1,V2` or `[…:]SCHEMA>=N`, optionally followed by
 * `@TARGET` (trajectory, step_range, fork_point, attempt). E.g. `gold:sft-usable=true`, `majority:recovery-quality>=2@attempt`.
 */
export function parseLabelConditionSpec(spec: string): z.input<typeof labelConditionSchema> {
  const m =
    /^(?:(any|gold|majority|all):)?([\w.-]+)(?:(>=)(-?\d+(?:\.\d+)?)|=([^=@]+))(?:@(trajectory|step_range|fork_point|attempt))?$/.exec(
      spec.trim(),
    );
  if (!m)
    throw new Error(
      `"${spec}" must look like [gold:|majority:|all:]SCHEMA=V1,V2 or [gold:|majority:|all:]SCHEMA>=N, optionally followed by @TARGET`,
    );
  const [, by, schema, ge, min, values, targetType] = m;
  return {
    schema: schema!,
    by: (by ?? "any") as LabelSource,
    ...(ge
      ? { min: Number(min) }
      : {
          values: values!
            .split(",")
            .map((v) => v.trim())
            .filter(Boolean),
        }),
    ...(targetType ? { targetType: targetType as LabelCondition["targetType"] } : {}),
  };
}

/** A condition as a short phrase (UI and CLI summaries). */
export function describeCondition(c: LabelCondition): string {
  const who = { any: "a label", gold: "the gold label", majority: "the annotators' majority", all: "every annotator" }[c.by];
  const what = c.min !== undefined ? `≥ ${c.min}` : `= ${c.values!.join(" or ")}`;
  return `${who}: ${c.schema} ${what}${c.targetType ? ` (${c.targetType})` : ""}`;
}
