// Failure modes ranked by trajectories affected, from what imports keep precomputed: the ranking and runs summed from
// FailureModeRollup (rows per mode, run, task and day), top values from FailureValueRollup, recovery from the fork
// points' stored figures, and examples by a LIMITed index walk per mode shown. None reads every signature.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { FailureModeFilter } from "../../../validation/failure-modes-params.ts";
import { dialectOf, type Queryable } from "../../dialect.ts";
import { withPlainPlan } from "../analytics/serial.ts";
import { conditionSql, signatureConditions } from "./filter.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);
const when = z
  .union([z.date(), z.string(), z.number()])
  .transform((d) => new Date(typeof d === "string" && !d.includes("T") ? d.replace(" ", "T") : d).toISOString());

export interface ModeRow {
  templateHash: string;
  template: string;
  kind: string;
  category: string;
  trajectories: number;
  failedTrajectories: number;
  steps: number;
  firstSeen: string;
  lastSeen: string;
}

const modeRows = z.array(
  z.object({
    templateHash: z.string(),
    template: z.string(),
    kind: z.string(),
    category: z.string(),
    trajectories: num,
    failed: num,
    steps: num,
    firstSeen: when,
    lastSeen: when,
  }),
);

function scope(
  db: Queryable,
  f: FailureModeFilter,
  alias: string,
  modes?: readonly string[],
  dateColumn: "importedAt" | "day" = "importedAt",
): Prisma.Sql {
  const parts = signatureConditions(f, alias, dialectOf(db), dateColumn);
  if (modes)
    parts.push(
      modes.length ? sql`${Prisma.raw(`"${alias}"`)}."templateHash" IN (${Prisma.join(modes.map((m) => sql`${m}`))})` : sql`1 = 0`,
    );
  return conditionSql(parts);
}

/**
 * Every mode in scope with its counts, most trajectories first (then most failed, then hash for a stable order), summed
 * from the rollup: a trajectory lies in one (run, task, day), so its rows' distinct counts add up exactly.
 */
export async function findModes(
  db: Db,
  f: FailureModeFilter,
  limit: number,
  modes?: readonly string[],
): Promise<{ modes: ModeRow[]; total: number }> {
  return withPlainPlan(db, async (q) => {
    const rows = await q.$queryRaw<unknown[]>`
      SELECT r."templateHash" AS "templateHash", MIN(r."template") AS "template", MIN(r."kind") AS "kind", MIN(r."category") AS "category",
        SUM(r."trajectories") AS "trajectories", SUM(r."failedTrajectories") AS "failed", SUM(r."steps") AS "steps",
        MIN(r."firstSeen") AS "firstSeen", MAX(r."lastSeen") AS "lastSeen"
      FROM "FailureModeRollup" r WHERE ${scope(q, f, "r", modes, "day")}
      GROUP BY r."templateHash"`;
    const all = modeRows.parse(rows).map((r) => ({
      templateHash: r.templateHash,
      template: r.template,
      kind: r.kind,
      category: r.category,
      trajectories: r.trajectories,
      failedTrajectories: r.failed,
      steps: r.steps,
      firstSeen: r.firstSeen,
      lastSeen: r.lastSeen,
    }));
    all.sort(
      (a, b) =>
        b.trajectories - a.trajectories || b.failedTrajectories - a.failedTrajectories || (a.templateHash < b.templateHash ? -1 : 1),
    );
    return { modes: all.slice(0, limit), total: all.length };
  });
}

/** Failed trajectories in scope (the denominator of "share of failures"), with the same filter on Trajectory. */
export async function countFailedTrajectories(db: Db, f: FailureModeFilter): Promise<number> {
  const parts = [sql`t."outcome" = 'failed'`, ...signatureConditions(f, "t", dialectOf(db))];
  const rows = await db.$queryRaw<unknown[]>`SELECT COUNT(*) AS "n" FROM "Trajectory" t WHERE ${conditionSql(parts)}`;
  return z.array(z.object({ n: num })).parse(rows)[0]?.n ?? 0;
}

/** Trajectories per (mode, run), for the modes shown. */
export async function findModeRuns(
  db: Db,
  f: FailureModeFilter,
  modes: readonly string[],
): Promise<{ templateHash: string; runId: string; trajectories: number }[]> {
  if (!modes.length) return [];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT r."templateHash" AS "templateHash", r."runId" AS "runId", SUM(r."trajectories") AS "n"
    FROM "FailureModeRollup" r WHERE ${scope(db, f, "r", modes, "day")} GROUP BY r."templateHash", r."runId"`;
  return z
    .array(z.object({ templateHash: z.string(), runId: z.string(), n: num }))
    .parse(rows)
    .map((r) => ({ templateHash: r.templateHash, runId: r.runId, trajectories: r.n }));
}

/** The most frequent concrete values (first value of each signature) per mode shown, `perMode` each, from the value rollup. */
export async function findModeValues(
  db: Db,
  f: FailureModeFilter,
  modes: readonly string[],
  perMode: number,
): Promise<{ templateHash: string; value: string; count: number }[]> {
  if (!modes.length) return [];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT "templateHash", "value", "n" FROM (
      SELECT v."templateHash", v."value", v."n", ROW_NUMBER() OVER (PARTITION BY v."templateHash" ORDER BY v."n" DESC, v."value") AS "rank"
      FROM (SELECT r."templateHash" AS "templateHash", r."value" AS "value", SUM(r."steps") AS "n" FROM "FailureValueRollup" r
        WHERE ${scope(db, f, "r", modes, "day")} GROUP BY r."templateHash", r."value") v
    ) x WHERE x."rank" <= ${perMode}`;
  return z
    .array(z.object({ templateHash: z.string(), value: z.string(), n: num }))
    .parse(rows)
    .map((r) => ({ templateHash: r.templateHash, value: r.value, count: r.n }));
}

/**
 * Example steps per mode shown: the most recently imported, `perMode` each. One LIMITed read per mode down the
 * (mode, import time) index, so the cost is the examples shown, not the mode's size.
 */
export async function findModeExamples(
  db: Db,
  f: FailureModeFilter,
  modes: readonly string[],
  perMode: number,
): Promise<{ templateHash: string; trajectoryId: string; stepIndex: number }[]> {
  if (!modes.length) return [];
  const parts = modes.map(
    (m, i) => sql`SELECT * FROM (
      SELECT fs."templateHash" AS "templateHash", fs."trajectoryId" AS "trajectoryId", fs."stepIndex" AS "stepIndex", fs."importedAt" AS "importedAt"
      FROM "FailureSignature" fs WHERE fs."templateHash" = ${m} AND ${scope(db, f, "fs")}
      ORDER BY fs."importedAt" DESC, fs."trajectoryId" DESC, fs."stepIndex" DESC LIMIT ${perMode}) ${Prisma.raw(`"e${i}"`)}`,
  );
  const rows = await db.$queryRaw<unknown[]>`${Prisma.join(parts, " UNION ALL ")}`;
  // UNION ALL keeps no order: latest first again, per mode.
  const latestFirst = (a: { importedAt: string; trajectoryId: string; stepIndex: number }, b: typeof a) =>
    a.importedAt !== b.importedAt
      ? a.importedAt < b.importedAt
        ? 1
        : -1
      : a.trajectoryId !== b.trajectoryId
        ? a.trajectoryId < b.trajectoryId
          ? 1
          : -1
        : b.stepIndex - a.stepIndex;
  return z
    .array(z.object({ templateHash: z.string(), trajectoryId: z.string(), stepIndex: num, importedAt: when }))
    .parse(rows)
    .sort(latestFirst)
    .map(({ templateHash, trajectoryId, stepIndex }) => ({ templateHash, trajectoryId, stepIndex }));
}

/**
 * Fork points at the modes shown, grouped by (mode, n, c) as the recovery figures need them: a fork point is at the
 * mode of its parent's last signature at or before the fork step (the failure the attempts recover from). Both that
 * mode and the attempt counts are stored on the fork point, so this reads the shown modes' fork points and nothing
 * else; the filter applies to the parent.
 */
export async function findModeForkCells(
  db: Db,
  f: FailureModeFilter,
  modes: readonly string[],
): Promise<{ templateHash: string; n: number; c: number; forkPoints: number; attempts: number; firstSum: number; firstCount: number }[]> {
  if (!modes.length) return [];
  const parts = signatureConditions(f, "t", dialectOf(db));
  const parent = parts.length ? sql`JOIN "Trajectory" t ON t."id" = fp."trajectoryId" AND ${conditionSql(parts)}` : Prisma.empty;
  const rows = await db.$queryRaw<unknown[]>`
    SELECT fp."failureMode" AS "mode", fp."knownAttempts" AS "n", fp."passedAttempts" AS "c", COUNT(*) AS "fps",
      SUM(fp."attemptCount") AS "attempts", SUM(fp."firstPass" + 1) AS "firstSum", COUNT(fp."firstPass") AS "firstCount"
    FROM "ForkPoint" fp ${parent}
    WHERE fp."failureMode" IN (${Prisma.join(modes.map((m) => sql`${m}`))})
    GROUP BY fp."failureMode", fp."knownAttempts", fp."passedAttempts"`;
  return z
    .array(z.object({ mode: z.string(), n: num, c: num, fps: num, attempts: num, firstSum: num.nullable(), firstCount: num }))
    .parse(rows)
    .map((r) => ({
      templateHash: r.mode,
      n: r.n,
      c: r.c,
      forkPoints: r.fps,
      attempts: r.attempts,
      firstSum: r.firstSum ?? 0,
      firstCount: r.firstCount,
    }));
}
