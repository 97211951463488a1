// A frozen version's export files, stored as zlib-compressed chunks (FrozenExportChunk) and a completion row
// (FrozenExport) written after the last chunk. What the chunks hold is the curation service's business; here they are
// bytes in order.
import type { Db } from "../../client.ts";
import { isUniqueViolation } from "../../unique-violation.ts";

export interface FrozenExportView {
  chunks: number;
  bytes: number;
  sha256: string;
  /** The dataset card rendered when the export was stored (null for exports stored before cards were kept). */
  card: string | null;
}

export interface FrozenExportChunkRow {
  seq: number;
  rowsEnd: number;
  size: number;
  data: Buffer;
}

/** The completion row of a stored export, or null when none was stored (or its writer died before the end). */
export async function findFrozenExport(db: Db, versionId: string, format: string): Promise<FrozenExportView | null> {
  const r = await db.frozenExport.findUnique({
    where: { versionId_format: { versionId, format } },
    select: { chunks: true, bytes: true, sha256: true, card: true },
  });
  return r ? { chunks: r.chunks, bytes: Number(r.bytes), sha256: r.sha256, card: r.card } : null;
}

/** Formats whose export is stored whole, by version (versions with none are absent). */
export async function listStoredExportFormats(db: Db, versionIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!versionIds.length) return out;
  const rows = await db.frozenExport.findMany({
    where: { versionId: { in: [...versionIds] } },
    select: { versionId: true, format: true },
    orderBy: [{ versionId: "asc" }, { format: "asc" }],
  });
  for (const r of rows) out.set(r.versionId, [...(out.get(r.versionId) ?? []), r.format]);
  return out;
}

/** Drop a stored export, completion row and chunks, in one transaction (to store it again). */
export async function deleteFrozenExport(db: Db, versionId: string, format: string): Promise<void> {
  await db.$transaction([
    db.frozenExport.deleteMany({ where: { versionId, format } }),
    db.frozenExportChunk.deleteMany({ where: { versionId, format } }),
  ]);
}

/** Drop chunks left by a writer that died before its completion row (a stored export, complete, is never touched). */
export async function clearUnfinishedFrozenExport(db: Db, versionId: string, format: string): Promise<void> {
  await db.$transaction(async (tx) => {
    if (await tx.frozenExport.findUnique({ where: { versionId_format: { versionId, format } }, select: { chunks: true } })) return;
    await tx.frozenExportChunk.deleteMany({ where: { versionId, format } });
  });
}

/** Returns false when the chunk is already there: another writer is storing the same export. */
export async function insertFrozenExportChunk(db: Db, versionId: string, format: string, c: FrozenExportChunkRow): Promise<boolean> {
  try {
    await db.frozenExportChunk.create({
      data: { versionId, format, seq: c.seq, rowsEnd: c.rowsEnd, size: c.size, data: c.data as Uint8Array<ArrayBuffer> },
    });
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

/**
 * Mark the export complete, after checking that exactly its chunks are stored. Returns false when another writer
 * completed the same export first (its chunks and row stand).
 */
export async function completeFrozenExport(db: Db, versionId: string, format: string, e: FrozenExportView): Promise<boolean> {
  try {
    return await db.$transaction(async (tx) => {
      const agg = await tx.frozenExportChunk.aggregate({ where: { versionId, format }, _count: { _all: true }, _sum: { size: true } });
      if (agg._count._all !== e.chunks || Number(agg._sum.size ?? 0) !== e.bytes) {
        throw new Error(
          `stored export ${format} of version ${versionId}: ${agg._count._all} chunks / ${agg._sum.size ?? 0} bytes stored, ${e.chunks} / ${e.bytes} written`,
        );
      }
      await tx.frozenExport.create({
        data: { versionId, format, chunks: e.chunks, bytes: BigInt(e.bytes), sha256: e.sha256, card: e.card },
      });
      return true;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
