// The steps of one failure mode in scope, and the suggestions already offered for them by one source: what
// "suggest this mode's category for all its steps" writes from.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { FailureModeFilter } from "../../../validation/failure-modes-params.ts";
import { dialectOf } from "../../dialect.ts";
import { conditionSql, signatureConditions } from "./filter.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);

/** Up to `limit` steps at mode `mode` within the filter, in (trajectory, step) order. */
export async function findModeSteps(
  db: Db,
  f: FailureModeFilter,
  mode: string,
  limit: number,
): Promise<{ trajectoryId: string; stepIndex: number; category: string }[]> {
  const parts = [...signatureConditions(f, "fs", dialectOf(db)), sql`"fs"."templateHash" = ${mode}`];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT fs."trajectoryId" AS "trajectoryId", fs."stepIndex" AS "stepIndex", fs."category" AS "category"
    FROM "FailureSignature" fs WHERE ${conditionSql(parts)} ORDER BY fs."trajectoryId", fs."stepIndex" LIMIT ${limit}`;
  return z.array(z.object({ trajectoryId: z.string(), stepIndex: num, category: z.string() })).parse(rows);
}

/** The existing suggestions of `source` on schema `schemaId` among `keys` (target key → id and value). */
export async function findSuggestionsByKey(
  db: Db,
  schemaId: string,
  source: string,
  keys: readonly string[],
): Promise<Map<string, { id: string; value: string }>> {
  const out = new Map<string, { id: string; value: string }>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db.suggestion.findMany({
      where: { schemaId, source, targetKey: { in: keys.slice(i, i + 500) } },
      select: { id: true, value: true, targetKey: true },
    });
    for (const r of rows) out.set(r.targetKey, { id: r.id, value: r.value });
  }
  return out;
}

/**
 * Labels of schema `schemaId` on the steps of the modes shown, counted per (mode, value): a step-range label covers
 * every signature step inside its range. Driven from the labels (few) to the signatures' primary key.
 */
export async function findModeLabelValues(
  db: Db,
  f: FailureModeFilter,
  modes: readonly string[],
  schemaId: string,
): Promise<{ templateHash: string; value: string; steps: number }[]> {
  if (!modes.length) return [];
  const parts = [...signatureConditions(f, "fs", dialectOf(db)), sql`fs."templateHash" IN (${Prisma.join(modes.map((m) => sql`${m}`))})`];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT fs."templateHash" AS "templateHash", a."value" AS "value", COUNT(DISTINCT fs."trajectoryId" || ':' || CAST(fs."stepIndex" AS TEXT)) AS "n"
    FROM "Annotation" a JOIN "FailureSignature" fs ON fs."trajectoryId" = a."trajectoryId" AND fs."stepIndex" >= a."stepStart" AND fs."stepIndex" <= a."stepEnd"
    WHERE a."schemaId" = ${schemaId} AND a."targetType" = 'step_range' AND ${conditionSql(parts)}
    GROUP BY fs."templateHash", a."value"`;
  return z
    .array(z.object({ templateHash: z.string(), value: z.string(), n: num }))
    .parse(rows)
    .map((r) => ({ templateHash: r.templateHash, value: r.value, steps: r.n }));
}
