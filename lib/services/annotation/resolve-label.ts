// Turn a label input into a checked row: trajectory, schema, target and value, each with a message naming what is wrong.
import { AppError } from "../../errors.ts";
import type { Db } from "../../db/client.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { findForkPointId, findTargetFacts, type NewLabel } from "../../db/repositories/annotation/labels.ts";
import { checkLabelValue, type LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import { resolveTarget } from "../../domain/annotation/targets.ts";
import type { LabelInput } from "./label-input.ts";

export type Resolved = { ok: true; label: Omit<NewLabel, "annotatorId">; schema: LabelSchemaView } | { ok: false; field: string; message: string };

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
    const t = resolveTarget(input.target, { trajectoryId: facts.id, stepCount: facts.stepCount, isAttempt: facts.isAttempt }, schema.targets);
    if (!t.ok) return { ok: false, field: "target", message: t.message };
    let forkPointId: string | null = null;
    if (t.target.type === "fork_point") {
      forkPointId = await findForkPointId(this.db, facts.id, t.target.forkStep!);
      if (!forkPointId) return { ok: false, field: "target", message: `no fork point at step ${t.target.forkStep} of this trajectory` };
    }
    const v = checkLabelValue(schema, input.value);
    if (!v.ok) return { ok: false, field: "value", message: v.message };
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    return {
      ok: true,
      schema,
      label: { schemaId: schema.id, targetType: t.target.type, targetKey: t.target.key, trajectoryId: facts.id, stepStart: t.target.stepStart, stepEnd: t.target.stepEnd, forkPointId, value: v.value, comment },
    };
  }
}

export async function resolveOrThrow(db: Db, input: LabelInput): Promise<Extract<Resolved, { ok: true }>> {
  const r = await new LabelResolver(db).resolve(input);
  if (!r.ok) throw new AppError(r.field === "trajectory" || r.field === "schema" ? "NOT_FOUND" : "INVALID_INPUT", `${r.field}: ${r.message}`);
  return r;
}
