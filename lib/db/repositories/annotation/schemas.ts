// Label schemas: read as validated views, created and edited by admins (options are never removed: see mergeOptions),
// and the default ones inserted at set-up.
import type { Db } from "../../client.ts";
import {
  labelOptionSchema,
  SCHEMA_KINDS,
  TARGET_TYPES,
  type LabelSchemaInput,
  type LabelSchemaView,
} from "../../../domain/annotation/label-schema.ts";
import type { LabelSchemaDefinition } from "../../../domain/taxonomy.ts";
import { z } from "zod";

const stored = z.object({
  kind: z.enum(SCHEMA_KINDS),
  targets: z.array(z.enum(TARGET_TYPES)),
  options: z.array(labelOptionSchema.partial({ label: true }).passthrough()),
});

type Row = {
  id: string;
  key: string;
  name: string;
  description: string | null;
  kind: string;
  targets: string;
  options: string;
  active: boolean;
  updatedAt: Date;
};

function toView(r: Row): LabelSchemaView {
  // Stored JSON is checked on the way out: a hand-edited row fails loudly here rather than deep in the UI.
  const s = stored.parse({ kind: r.kind, targets: JSON.parse(r.targets), options: JSON.parse(r.options) });
  return {
    id: r.id,
    key: r.key,
    name: r.name,
    description: r.description,
    kind: s.kind,
    targets: s.targets,
    options: s.options.map((o) => ({ ...o, label: o.label ?? o.value })),
    active: r.active,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listLabelSchemas(db: Db, opts: { activeOnly?: boolean } = {}): Promise<LabelSchemaView[]> {
  const rows = await db.labelSchema.findMany({ where: opts.activeOnly ? { active: true } : {}, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
}

export async function findLabelSchema(db: Db, keyOrId: string): Promise<LabelSchemaView | null> {
  const r = (await db.labelSchema.findUnique({ where: { key: keyOrId } })) ?? (await db.labelSchema.findUnique({ where: { id: keyOrId } }));
  return r ? toView(r) : null;
}

export async function createLabelSchema(db: Db, s: LabelSchemaInput): Promise<LabelSchemaView> {
  const r = await db.labelSchema.create({
    data: {
      key: s.key,
      name: s.name,
      description: s.description ?? null,
      kind: s.kind,
      targets: JSON.stringify(s.targets),
      options: JSON.stringify(s.options),
      active: s.active,
    },
  });
  return toView(r);
}

/** Update when the schema was not changed since `expectedUpdatedAt`; null when someone else saved first. */
export async function updateLabelSchema(
  db: Db,
  id: string,
  expectedUpdatedAt: string,
  s: Omit<LabelSchemaInput, "key">,
): Promise<LabelSchemaView | null> {
  const n = await db.labelSchema.updateMany({
    where: { id, updatedAt: new Date(expectedUpdatedAt) },
    data: {
      name: s.name,
      description: s.description ?? null,
      kind: s.kind,
      targets: JSON.stringify(s.targets),
      options: JSON.stringify(s.options),
      active: s.active,
    },
  });
  if (n.count === 0) return null;
  return findLabelSchema(db, id);
}

export async function countLabelsOfSchema(db: Db, schemaId: string): Promise<number> {
  return db.annotation.count({ where: { schemaId } });
}

/** Labels per schema id, one grouped query (the schema list). */
export async function countLabelsBySchema(db: Db): Promise<Map<string, number>> {
  const groups = await db.annotation.groupBy({ by: ["schemaId"], _count: { _all: true } });
  return new Map(groups.map((g) => [g.schemaId, g._count._all]));
}

/** Insert the default label schemas that are missing (never overwrites a schema an admin edited). */
export async function ensureLabelSchemas(db: Db, defs: LabelSchemaDefinition[]): Promise<number> {
  let created = 0;
  for (const d of defs) {
    const exists = await db.labelSchema.findUnique({ where: { key: d.key }, select: { id: true } });
    if (exists) continue;
    await db.labelSchema.create({
      data: {
        key: d.key,
        name: d.name,
        description: d.description,
        kind: d.kind,
        targets: JSON.stringify(d.targets),
        options: JSON.stringify(d.options),
      },
    });
    created++;
  }
  return created;
}
