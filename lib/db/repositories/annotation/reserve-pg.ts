// "Next item" on PostgreSQL in one statement per step: the first open item by position is locked with
// FOR UPDATE SKIP LOCKED, so 50 annotators asking at once each lock a different item instead of racing on the same
// free place and retrying; the place is inserted in the same statement. An expired reservation is taken over first
// (oldest work first), the same way. The unique indexes stay the guard either way.
import { randomUUID } from "node:crypto";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";

const sql = Prisma.sql;

/** The id of the slot reserved for the annotator, or null when the queue holds nothing more for them. */
export async function reserveNextSkipLocked(
  db: Db,
  queueId: string,
  annotatorId: string,
  labelsPerItem: number,
  now: Date,
  expiresAt: Date,
): Promise<string | null> {
  const takenOver = await db.$queryRaw<{ id: string }[]>(sql`
    UPDATE "QueueSlot" SET "annotatorId" = ${annotatorId}, "expiresAt" = ${expiresAt}, "updatedAt" = ${now}
    WHERE "id" = (
      SELECT s."id" FROM "QueueSlot" s JOIN "QueueItem" qi ON qi."id" = s."itemId"
      WHERE s."queueId" = ${queueId} AND s."status" = 'reserved' AND s."expiresAt" <= ${now}
        AND NOT EXISTS (SELECT 1 FROM "QueueSlot" m WHERE m."itemId" = s."itemId" AND m."annotatorId" = ${annotatorId})
      ORDER BY qi."position" LIMIT 1 FOR UPDATE OF s SKIP LOCKED)
    RETURNING "id"`);
  if (takenOver[0]) return takenOver[0].id;
  // labelsPerItem = 1 (the usual queue): open items are exactly doneCount = 0, which the (queueId, doneCount,
  // position) index walks in position order.
  const open = labelsPerItem === 1 ? sql`qi."doneCount" = 0` : sql`qi."doneCount" < ${labelsPerItem}`;
  const inserted = await db.$queryRaw<{ id: string }[]>(sql`
    WITH cand AS (
      SELECT qi."id" FROM "QueueItem" qi
      WHERE qi."queueId" = ${queueId} AND ${open}
        AND NOT EXISTS (SELECT 1 FROM "QueueSlot" s WHERE s."itemId" = qi."id" AND s."annotatorId" = ${annotatorId})
        AND (SELECT COUNT(*) FROM "QueueSlot" s WHERE s."itemId" = qi."id" AND s."slot" IS NOT NULL) < ${labelsPerItem}
      ORDER BY qi."position" LIMIT 1 FOR UPDATE OF qi SKIP LOCKED)
    INSERT INTO "QueueSlot" ("id", "queueId", "itemId", "slot", "annotatorId", "status", "expiresAt", "createdAt", "updatedAt")
    SELECT ${randomUUID()}, ${queueId}, cand."id",
      (SELECT MIN(g) FROM generate_series(0, ${labelsPerItem - 1}::int) g WHERE NOT EXISTS (SELECT 1 FROM "QueueSlot" s WHERE s."itemId" = cand."id" AND s."slot" = g)),
      ${annotatorId}, 'reserved', ${expiresAt}, ${now}, ${now}
    FROM cand
    RETURNING "id"`);
  return inserted[0]?.id ?? null;
}
