// Annotation progress over time for the analytics page: labels per period and schema, queue items
// completed per period, both counted in the database; and, for agreement over time, the label rows of targets at
// least two annotators labelled (bounded by the labelled targets, never by the trajectories). Periods are UTC days
// or ISO weeks (Monday), as "YYYY-MM-DD" strings computed by each database from the stored timestamp.
import { z } from "zod";

import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { dialectOf } from "../../dialect.ts";
import { scopeConditions } from "./scope.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);
export type Period = "day" | "week";

/** The period (first day, "YYYY-MM-DD") of timestamp column `col`. SQLite stores ISO-8601 UTC text. */
function periodSql(db: Db, col: Prisma.Sql, period: Period): Prisma.Sql {
  if (dialectOf(db) === "postgresql")
    return period === "day" ? sql`to_char(${col}, 'YYYY-MM-DD')` : sql`to_char(date_trunc('week', ${col}), 'YYYY-MM-DD')`;
  // 'weekday 0' moves forward to Sunday (or stays on one); six days back is that week's Monday.
  return period === "day" ? sql`substr(${col}, 1, 10)` : sql`date(substr(${col}, 1, 10), 'weekday 0', '-6 days')`;
}

/** Trajectory alias `t` restricted to the analytics filter (labels and queue items count when their trajectory is in scope). */
const inScope = (f: AnalyticsFilter) => {
  const parts = scopeConditions(f, "t");
  return parts.length ? sql` AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
};

/** Labels per (period, schema): how many were made and on how many distinct trajectories. */
export async function countLabelsByPeriod(
  db: Db,
  f: AnalyticsFilter,
  period: Period,
): Promise<{ period: string; schemaKey: string; labels: number; trajectories: number }[]> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT x."p" AS "p", ls."key" AS "k", CAST(SUM(x."n") AS INTEGER) AS "n", CAST(SUM(x."tr") AS INTEGER) AS "tr"
    FROM (SELECT a."schemaId" AS "s", ${periodSql(db, sql`a."createdAt"`, period)} AS "p", COUNT(*) AS "n", COUNT(DISTINCT a."trajectoryId") AS "tr"
          FROM "Annotation" a JOIN "Trajectory" t ON t."id" = a."trajectoryId" WHERE 1 = 1${inScope(f)}
          GROUP BY a."schemaId", ${periodSql(db, sql`a."createdAt"`, period)}) x
    JOIN "LabelSchema" ls ON ls."id" = x."s"
    GROUP BY x."p", ls."key" ORDER BY 1, 2`;
  return z
    .array(z.object({ p: z.string(), k: z.string(), n: num, tr: num }))
    .parse(rows)
    .map((r) => ({ period: r.p, schemaKey: r.k, labels: r.n, trajectories: r.tr }));
}

/**
 * Queue items completed per (period, queue): an item is complete once it has `labelsPerItem` done places, and it
 * completed when the last of them was finished (the slot's updatedAt).
 */
export async function countCompletedItemsByPeriod(
  db: Db,
  f: AnalyticsFilter,
  period: Period,
): Promise<{ period: string; queueId: string; queueName: string; items: number }[]> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT ${periodSql(db, sql`d."at"`, period)} AS "p", q."id" AS "q", q."name" AS "name", CAST(COUNT(*) AS INTEGER) AS "n"
    FROM (SELECT s."itemId" AS "item", s."queueId" AS "queue", MAX(s."updatedAt") AS "at", COUNT(*) AS "done"
          FROM "QueueSlot" s JOIN "QueueItem" i ON i."id" = s."itemId" JOIN "Trajectory" t ON t."id" = i."trajectoryId"
          WHERE s."status" = 'done'${inScope(f)} GROUP BY s."itemId", s."queueId") d
    JOIN "AnnotationQueue" q ON q."id" = d."queue"
    WHERE d."done" >= q."labelsPerItem"
    GROUP BY ${periodSql(db, sql`d."at"`, period)}, q."id", q."name" ORDER BY 1, 3`;
  return z
    .array(z.object({ p: z.string(), q: z.string(), name: z.string(), n: num }))
    .parse(rows)
    .map((r) => ({ period: r.p, queueId: r.q, queueName: r.name, items: r.n }));
}

export interface PairedLabel {
  schemaId: string;
  targetKey: string;
  annotatorId: string;
  value: string;
  /** Period of this label's creation. */
  period: string;
}

/** Label rows (of the given schemas) on targets that at least two annotators labelled — the only ones agreement reads. */
export async function loadPairedLabels(db: Db, f: AnalyticsFilter, schemaIds: string[], period: Period): Promise<PairedLabel[]> {
  if (!schemaIds.length) return [];
  const ids = Prisma.join(schemaIds.map((id) => sql`${id}`));
  // Targets with two or more annotators are found in one grouped pass: an EXISTS per label row could only seek on
  // schemaId in the (schemaId, annotatorId, targetKey) index, so it read every label of the schema for each row.
  const rows = await db.$queryRaw<unknown[]>`
    SELECT a."schemaId" AS "s", a."targetKey" AS "k", a."annotatorId" AS "u", a."value" AS "v", ${periodSql(db, sql`a."createdAt"`, period)} AS "p"
    FROM "Annotation" a JOIN "Trajectory" t ON t."id" = a."trajectoryId"
      JOIN (SELECT b."schemaId" AS "s", b."targetKey" AS "k" FROM "Annotation" b WHERE b."schemaId" IN (${ids})
            GROUP BY b."schemaId", b."targetKey" HAVING COUNT(DISTINCT b."annotatorId") > 1) m ON m."s" = a."schemaId" AND m."k" = a."targetKey"
    WHERE a."schemaId" IN (${ids})${inScope(f)}`;
  return z
    .array(z.object({ s: z.string(), k: z.string(), u: z.string(), v: z.string(), p: z.string() }))
    .parse(rows)
    .map((r) => ({ schemaId: r.s, targetKey: r.k, annotatorId: r.u, value: r.v, period: r.p }));
}
