// Terminal recordings in time-ordered chunks, read in ranges so a 20 MB recording never has to be loaded whole,
// and the keyframes the replay pipeline stores next to each chunk.
import type { Db } from "../../client.ts";

export interface RecordingMeta {
  id: string;
  format: string;
  width: number;
  height: number;
  durationMs: number;
  eventCount: number;
  byteSize: number;
  /** Opaque JSON of the original header. */
  header: string | null;
}

export interface ChunkRow {
  seq: number;
  startMs: number;
  endMs: number;
  /** JSON array of [ms, code, data] — validated by the caller. */
  events: string;
}

export async function findRecordingMeta(db: Db, trajectoryId: string): Promise<RecordingMeta | null> {
  return db.recording.findUnique({
    where: { trajectoryId },
    select: { id: true, format: true, width: true, height: true, durationMs: true, eventCount: true, byteSize: true, header: true },
  });
}

/** Chunk boundaries only (no event data). */
export async function listChunkInfo(db: Db, recordingId: string): Promise<{ seq: number; startMs: number; endMs: number }[]> {
  return db.recordingChunk.findMany({ where: { recordingId }, orderBy: { seq: "asc" }, select: { seq: true, startMs: true, endMs: true } });
}

/** Chunks with seq in [fromSeq, toSeq]. */
export async function readChunks(db: Db, recordingId: string, fromSeq: number, toSeq: number): Promise<ChunkRow[]> {
  return db.recordingChunk.findMany({
    where: { recordingId, seq: { gte: fromSeq, lte: toSeq } },
    orderBy: { seq: "asc" },
    select: { seq: true, startMs: true, endMs: true, events: true },
  });
}

/** The keyframe at or before chunk `seq` (raw JSON), or null when none is stored. */
export async function findNearestKeyframe(db: Db, recordingId: string, seq: number): Promise<{ seq: number; keyframe: string } | null> {
  const row = await db.recordingChunk.findFirst({
    where: { recordingId, seq: { lte: seq }, keyframe: { not: null } },
    orderBy: { seq: "desc" },
    select: { seq: true, keyframe: true },
  });
  return row?.keyframe ? { seq: row.seq, keyframe: row.keyframe } : null;
}

/** Keyframes are complete once chunk 0 has one (it is always written last); its JSON tells their version. */
export async function findFirstKeyframe(db: Db, recordingId: string): Promise<string | null> {
  const row = await db.recordingChunk.findFirst({ where: { recordingId, seq: 0, keyframe: { not: null } }, select: { keyframe: true } });
  return row?.keyframe ?? null;
}

/**
 * Replace a recording's keyframes (JSON) in one transaction — older ones cleared first, chunk 0 last — so a reader
 * that sees chunk 0's keyframe can rely on all others being there and of the same build.
 */
export async function saveKeyframes(db: Db, recordingId: string, keyframes: { seq: number; keyframe: string }[]): Promise<void> {
  const ordered = [...keyframes].sort((a, b) => (a.seq === 0 ? 1 : b.seq === 0 ? -1 : a.seq - b.seq));
  await db.$transaction([
    db.recordingChunk.updateMany({ where: { recordingId, keyframe: { not: null } }, data: { keyframe: null } }),
    ...ordered.map((k) =>
      db.recordingChunk.update({
        where: { recordingId_seq: { recordingId, seq: k.seq } },
        data: { keyframe: k.keyframe },
        select: { seq: true },
      }),
    ),
  ]);
}
