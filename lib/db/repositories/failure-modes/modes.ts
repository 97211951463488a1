// Failure modes ranked by trajectories affected: the ranking and runs summed from FailureModeRollup (a few rows per
// mode, run, task and day), then per-mode details (values, examples, fork points) only for the modes shown, read
// from FailureSignature's indexes.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { FailureModeFilter } from "../../../validation/failure-modes-params.ts";
import { dialectOf, type Queryable } from "../search.ts";
import { withPlainPlan } from "../analytics/serial.ts";
import { conditionSql, signatureConditions } from "./filter.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);
const when = z.union([z.date(), z.string(), z.number()]).transform((d) => new Date(typeof d === "string" && !d.includes("T") ? d.replace(" ", "T") : d).toISOString());

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

const modeRows = z.array(z.object({ templateHash: z.string(), template: z.string(), kind: z.string(), category: z.string(), trajectories: num, failed: num, steps: num, firstSeen: when, lastSeen: when }));

function scope(db: Queryable, f: FailureModeFilter, alias: string, modes?: readonly string[], dateColumn: "importedAt" | "day" = "importedAt"): Prisma.Sql {
  const parts = signatureConditions(f, alias, dialectOf(db), dateColumn);
  if (modes) parts.push(modes.length ? sql`${Prisma.raw(`"${alias}"`)}."templateHash" IN (${Prisma.join(modes.map((m) => sql`${m}`))})` : sql`1 = 0`);
  return conditionSql(parts);
}

/**
 * Every mode in scope with its counts, most trajectories first (then most failed, then hash for a stable order), summed
 * from the rollup: a trajectory lies in one (run, task, day), so its rows' distinct counts add up exactly.
 */
export async function findModes(db: Db, f: FailureModeFilter, limit: number, modes?: readonly string[]): Promise<{ modes: ModeRow[]; total: number }> {
  return withPlainPlan(db, async (q) => {
    const rows = await q.$queryRaw<unknown[]>`
      SELECT r."templateHash" AS "templateHash", MIN(r."template") AS "template", MIN(r."kind") AS "kind", MIN(r."category") AS "category",
        SUM(r."trajectories") AS "trajectories", SUM(r."failedTrajectories") AS "failed", SUM(r."steps") AS "steps",
        MIN(r."firstSeen") AS "firstSeen", MAX(r."lastSeen") AS "lastSeen"
      FROM "FailureModeRollup" r WHERE ${scope(q, f, "r", modes, "day")}
      GROUP BY r."templateHash"`;
    const all = modeRows.parse(rows).map((r) => ({ templateHash: r.templateHash, template: r.template, kind: r.kind, category: r.category, trajectories: r.trajectories, failedTrajectories: r.failed, steps: r.steps, firstSeen: r.firstSeen, lastSeen: r.lastSeen }));
    all.sort((a, b) => b.trajectories - a.trajectories || b.failedTrajectories - a.failedTrajectories || (a.templateHash < b.templateHash ? -1 : 1));
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
export async function findModeRuns(db: Db, f: FailureModeFilter, modes: readonly string[]): Promise<{ templateHash: string; runId: string; trajectories: number }[]> {
  if (!modes.length) return [];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT r."templateHash" AS "templateHash", r."runId" AS "runId", SUM(r."trajectories") AS "n"
    FROM "FailureModeRollup" r WHERE ${scope(db, f, "r", modes, "day")} GROUP BY r."templateHash", r."runId"`;
  return z.array(z.object({ templateHash: z.string(), runId: z.string(), n: num })).parse(rows).map((r) => ({ templateHash: r.templateHash, runId: r.runId, trajectories: r.n }));
}

/** The most frequent concrete values (first value of each signature) per mode shown, `perMode` each. */
export async function findModeValues(db: Db, f: FailureModeFilter, modes: readonly string[], perMode: number): Promise<{ templateHash: string; value: string; count: number }[]> {
  if (!modes.length) return [];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT "templateHash", "value", "n" FROM (
      SELECT v."templateHash", v."value", v."n", ROW_NUMBER() OVER (PARTITION BY v."templateHash" ORDER BY v."n" DESC, v."value") AS "rank"
      FROM (SELECT fs."templateHash" AS "templateHash", fs."value" AS "value", COUNT(*) AS "n" FROM "FailureSignature" fs
        WHERE fs."value" IS NOT NULL AND ${scope(db, f, "fs", modes)} GROUP BY fs."templateHash", fs."value") v
    ) r WHERE r."rank" <= ${perMode}`;
  return z.array(z.object({ templateHash: z.string(), value: z.string(), n: num })).parse(rows).map((r) => ({ templateHash: r.templateHash, value: r.value, count: r.n }));
}

/**
 * Example steps per mode shown: the most recently imported, `perMode` each. One LIMITed read per mode down the
 * (mode, import time) index, so the cost is the examples shown, not the mode's size.
 */
export async function findModeExamples(db: Db, f: FailureModeFilter, modes: readonly string[], perMode: number): Promise<{ templateHash: string; trajectoryId: string; stepIndex: number }[]> {
  if (!modes.length) return [];
  const parts = modes.map((m, i) => sql`SELECT * FROM (
      SELECT fs."templateHash" AS "templateHash", fs."trajectoryId" AS "trajectoryId", fs."stepIndex" AS "stepIndex", fs."importedAt" AS "importedAt"
      FROM "FailureSignature" fs WHERE fs."templateHash" = ${m} AND ${scope(db, f, "fs")}
      ORDER BY fs."importedAt" DESC, fs."trajectoryId" DESC, fs."stepIndex" DESC LIMIT ${perMode}) ${Prisma.raw(`"e${i}"`)}`);
  const rows = await db.$queryRaw<unknown[]>`${Prisma.join(parts, " UNION ALL ")}`;
  // UNION ALL keeps no order: latest first again, per mode.
  const latestFirst = (a: { importedAt: string; trajectoryId: string; stepIndex: number }, b: typeof a) =>
    a.importedAt !== b.importedAt ? (a.importedAt < b.importedAt ? 1 : -1) : a.trajectoryId !== b.trajectoryId ? (a.trajectoryId < b.trajectoryId ? 1 : -1) : b.stepIndex - a.stepIndex;
  return z.array(z.object({ templateHash: z.string(), trajectoryId: z.string(), stepIndex: num, importedAt: when })).parse(rows).sort(latestFirst)
    .map(({ templateHash, trajectoryId, stepIndex }) => ({ templateHash, trajectoryId, stepIndex }));
}

/**
 * Fork points at the modes shown, grouped by (mode, n, c) as the recovery figures need them: a fork point is at the
 * mode of its parent's last signature at or before the fork step (the failure the attempts recover from).
 */
export async function findModeForkCells(db: Db, f: FailureModeFilter, modes: readonly string[]): Promise<{ templateHash: string; n: number; c: number; forkPoints: number; attempts: number; firstSum: number; firstCount: number }[]> {
  if (!modes.length) return [];
  const rows = await withPlainPlan(db, (q) => q.$queryRaw<unknown[]>`
    WITH at AS (
      SELECT fp."id" AS "id", (SELECT fs."templateHash" FROM "FailureSignature" fs WHERE fs."trajectoryId" = fp."trajectoryId" AND fs."stepIndex" <= fp."stepIndex" AND ${scope(q, f, "fs")} ORDER BY fs."stepIndex" DESC LIMIT 1) AS "mode"
      FROM "ForkPoint" fp WHERE fp."trajectoryId" IN (SELECT fs."trajectoryId" FROM "FailureSignature" fs WHERE ${scope(q, f, "fs", modes)})
    ), agg AS (
      SELECT t."forkPointId" AS "id", COUNT(*) AS "attempts",
        SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS "n",
        SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS "c",
        MIN(CASE WHEN t."outcome" = 'passed' THEN t."attemptIndex" END) AS "first"
      FROM "Trajectory" t WHERE t."forkPointId" IN (SELECT "id" FROM at) GROUP BY t."forkPointId"
    )
    SELECT at."mode" AS "mode", CAST(COALESCE(agg."n", 0) AS INTEGER) AS "n", CAST(COALESCE(agg."c", 0) AS INTEGER) AS "c", COUNT(*) AS "fps",
      CAST(SUM(COALESCE(agg."attempts", 0)) AS INTEGER) AS "attempts", CAST(SUM(agg."first" + 1) AS INTEGER) AS "firstSum", COUNT(agg."first") AS "firstCount"
    FROM at LEFT JOIN agg ON agg."id" = at."id" WHERE at."mode" IN (${Prisma.join(modes.map((m) => sql`${m}`))})
    GROUP BY at."mode", COALESCE(agg."n", 0), COALESCE(agg."c", 0)`);
  return z.array(z.object({ mode: z.string(), n: num, c: num, fps: num, attempts: num, firstSum: num.nullable(), firstCount: num })).parse(rows)
    .map((r) => ({ templateHash: r.mode, n: r.n, c: r.c, forkPoints: r.fps, attempts: r.attempts, firstSum: r.firstSum ?? 0, firstCount: r.firstCount }));
}
