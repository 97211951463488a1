// Turn a label input into a checked row: trajectory, schema, target and value, each with a message naming what is wrong.
import { AppError } from "../../errors.ts";
import type { Db } from "../../db/client.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { findForkPointId, findTargetFacts, listForkAttemptIds, type NewLabel } from "../../db/repositories/annotation/labels.ts";
import { checkLabelValue, type LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import { resolveTarget } from "../../domain/annotation/targets.ts";
import type { LabelInput } from "./label-input.ts";

export type Resolved =
  { ok: true; label: Omit<NewLabel, "annotatorId">; schema: LabelSchemaView } | { ok: false; field: string; message: string };

/** Caches lookups across the lines of one import. */
export class LabelResolver {
  private schemas = new Map<string, Promise<LabelSchemaView | null>>();
  private trajectories = new Map<string, ReturnType<typeof findTargetFacts>>();
  constructor(private db: Db) {}

  async resolve(input: LabelInput): Promise<Resolved> {
    let schemaP = this.schemas.get(input.schema);
    if (!schemaP) this.schemas.set(input.schema, (schemaP = findLabelSchema(this.db, input.schema)));
    const schema = await schemaP;
    if (!schema) return { ok: false, field: "schema", message: `unknown schema "${input.schema}"` };
    let factsP = this.trajectories.get(input.trajectory);
    if (!factsP) this.trajectories.set(input.trajectory, (factsP = findTargetFacts(this.db, input.trajectory)));
    const facts = await factsP;
    if (!facts) return { ok: false, field: "trajectory", message: `no trajectory with id or external id "${input.trajectory}"` };
    const t = resolveTarget(
      input.target,
      { trajectoryId: facts.id, stepCount: facts.stepCount, isAttempt: facts.isAttempt },
      schema.targets,
    );
    if (!t.ok) return { ok: false, field: "target", message: t.message };
    let forkPointId: string | null = null;
    if (t.target.type === "fork_point") {
      forkPointId = await findForkPointId(this.db, facts.id, t.target.forkStep!);
      if (!forkPointId) return { ok: false, field: "target", message: `no fork point at step ${t.target.forkStep} of this trajectory` };
    }
    const v = checkLabelValue(schema, input.value);
    if (!v.ok) return { ok: false, field: "value", message: v.message };
    if (schema.kind === "ranking") {
      const problem = await checkRanking(this.db, v.value, forkPointId);
      if (problem) return { ok: false, field: "value", message: problem };
    }
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    return {
      ok: true,
      schema,
      label: {
        schemaId: schema.id,
        targetType: t.target.type,
        targetKey: t.target.key,
        trajectoryId: facts.id,
        stepStart: t.target.stepStart,
        stepEnd: t.target.stepEnd,
        forkPointId,
        value: v.value,
        comment,
      },
    };
  }
}

/** A ranking orders every attempt of its fork point, each once: an incomplete or foreign list is refused. */
export async function checkRanking(db: Db, value: string, forkPointId: string | null): Promise<string | null> {
  if (!forkPointId) return 'a ranking labels the attempts of a fork point: give the target as {"forkStep": n}';
  const ids = JSON.parse(value) as string[];
  const attempts = await listForkAttemptIds(db, forkPointId);
  const known = new Set(attempts);
  const foreign = ids.filter((id) => !known.has(id));
  if (foreign.length) return `not attempts of this fork point: ${foreign.slice(0, 5).join(", ")}`;
  const missing = attempts.filter((id) => !ids.includes(id));
  if (missing.length)
    return `the ranking leaves out ${missing.length} of the fork point's ${attempts.length} attempts (${missing.slice(0, 5).join(", ")}); rank them all`;
  return null;
}

export async function resolveOrThrow(db: Db, input: LabelInput): Promise<Extract<Resolved, { ok: true }>> {
  const r = await new LabelResolver(db).resolve(input);
  if (!r.ok)
    throw new AppError(r.field === "trajectory" || r.field === "schema" ? "NOT_FOUND" : "INVALID_INPUT", `${r.field}: ${r.message}`);
  return r;
}
