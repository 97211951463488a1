// Use cases of the terminal replay: the manifest a player needs before its first frame, and event chunks by
// time range with the nearest keyframe. Sessions (index + keyframe state) are cached per server process.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import type { Db } from "../../db/client.ts";
import { findRecordingMeta } from "../../db/repositories/replay/recordings.ts";
import { findStepHeads, findTrajectoryHead, type StepHead } from "../../db/repositories/browse/trajectory-detail.ts";
import { chunkIndexAt, type ReplayIndex, type ReplayManifest, type ReplayRange, type StepSummary } from "../../domain/replay/recording.ts";
import { AppError } from "../../errors.ts";
import { openRecordedSource } from "./recorded.ts";
import { buildKeyframesOffThread, prepareKeyframeThread, type KeyframeBuilder } from "./headless/keyframe-builder.ts";
import { stopReplayWork as stopBackgroundWork, trackReplayWork, type ReplaySource, type SourceDeps } from "./source.ts";
import { openSynthesizedSource } from "./synthesized.ts";
import { loadReplayLayout, storeReplayLayout } from "./layout.ts";

let keyframeBuilder: KeyframeBuilder = buildKeyframesOffThread;

/** Test hook: build keyframes another way (e.g. with a tiny budget). Returns the previous builder. */
export function setKeyframeBuilder(builder: KeyframeBuilder): KeyframeBuilder {
  const previous = keyframeBuilder;
  keyframeBuilder = builder;
  clearReplaySessions();
  return previous;
}

function sourceDeps(db: Db): SourceDeps {
  return { db, buildKeyframes: (...args) => keyframeBuilder(...args), saveLayout: (source) => storeReplayLayout(db, source) };
}

/** Strict API schema for GET …/replay (400 on bad input). */
export const replayRangeQuerySchema = z
  .object({
    fromMs: z.coerce.number().int().nonnegative(),
    toMs: z.coerce.number().int().nonnegative().optional(),
    keyframe: z.enum(["0", "1"]).default("1"),
  })
  .refine((q) => q.toMs === undefined || q.toMs >= q.fromMs, { message: "toMs must not be before fromMs", path: ["toMs"] });
export type ReplayRangeQuery = z.infer<typeof replayRangeQuerySchema>;

const MAX_RANGE_CHUNKS = 32;
const MAX_RANGE_CHARS = 4 * 1024 * 1024;
const MAX_CACHED_SESSIONS = 12;
const COMMAND_CHARS = 160;

declare global {
  var __retermReplaySessions: Map<string, Promise<ReplaySource>> | undefined;
}

// One cache per process, on globalThis: Next bundles pages and route handlers separately, and a module-level
// Map would be duplicated between them.
function sessions(): Map<string, Promise<ReplaySource>> {
  globalThis.__retermReplaySessions ??= new Map();
  return globalThis.__retermReplaySessions;
}

type TrajectoryHead = NonNullable<Awaited<ReturnType<typeof findTrajectoryHead>>>;

/** The stored layout when there is a valid one, else the pass over the output (with the step heads it read). */
async function openOrLoadSource(db: Db, head: TrajectoryHead): Promise<{ source: ReplaySource; stored: boolean; heads?: StepHead[] }> {
  const deps = sourceDeps(db);
  const meta = head.hasRecording ? await findRecordingMeta(db, head.id) : null;
  const stored = await loadReplayLayout(deps, head.id, { stepCount: head.stepCount, recordingId: meta?.id ?? null });
  if (stored) return { source: stored, stored: true };
  if (!meta) return { source: await openSynthesizedSource(deps, head.id, head.stepCount), stored: false };
  const heads = await findStepHeads(db, head.id);
  return { source: await openRecordedSource(deps, head.id, meta, heads), stored: false, heads };
}

async function openSession(ctx: ServiceContext, id: string): Promise<{ source: ReplaySource; heads?: StepHead[]; stepCount: number }> {
  const head = await findTrajectoryHead(ctx.db, id);
  if (!head) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  const stepCount = head.stepCount;
  const key = `${head.id}:${head.stepCount}:${head.hasRecording ? "r" : "s"}`;
  const cache = sessions();
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return { source: await hit, stepCount };
  }
  let heads: StepHead[] | undefined;
  const opening = (async () => {
    const opened = await openOrLoadSource(ctx.db, head);
    heads = opened.heads;
    // Saved after the answer is on its way: a failed save only means the next open computes it again.
    if (!opened.stored)
      void trackReplayWork(storeReplayLayout(ctx.db, opened.source)).catch((e: unknown) =>
        console.error(`[replay] saving the layout of ${head.id} failed:`, e),
      );
    return opened.source;
  })();
  cache.set(key, opening);
  while (cache.size > MAX_CACHED_SESSIONS) cache.delete(cache.keys().next().value!);
  try {
    return { source: await opening, heads, stepCount };
  } catch (e) {
    cache.delete(key);
    throw e;
  }
}

export function summarizeStep(h: StepHead): StepSummary {
  const action = h.action?.trim() || null;
  const first = action?.split("\n")[0] ?? null;
  const command = first && first.length > COMMAND_CHARS ? `${first.slice(0, COMMAND_CHARS)}…` : first;
  return {
    index: h.index,
    source: h.source,
    command,
    more: !!action && action !== command,
    exitCode: h.exitCode,
    isError: h.isError,
    isCopiedContext: h.isCopiedContext,
  };
}

/**
 * What a player needs before its first frame: timing index, chunk boundaries and one line per step. Starts
 * keyframe computation in the background so that the first seek is already fast.
 */
export async function getReplayManifest(ctx: ServiceContext, id: string, opts: { withSteps?: boolean } = {}): Promise<ReplayManifest> {
  const { index, heads } = await openReplay(ctx, id);
  // The trajectory page reads its step lines in ranges (opening.ts, step-summaries.ts), not all at once.
  if (opts.withSteps === false) return { index, steps: [] };
  const steps = (heads ?? (await findStepHeads(ctx.db, index.trajectoryId))).map(summarizeStep);
  return { index, steps };
}

/** The session's index and step count (the page's opening reads no step lines here: it takes a window of them). */
export async function openReplay(ctx: ServiceContext, id: string): Promise<{ index: ReplayIndex; stepCount: number; heads?: StepHead[] }> {
  authorize(ctx, "trajectory:read");
  const { source, heads, stepCount } = await openSession(ctx, id);
  source.warmKeyframes();
  prepareKeyframeThread();
  return { index: source.index, stepCount, heads };
}

/**
 * True when this process knows the session's keyframes are there (built or found stored), so a keyframe range is
 * bounded work; false while they may still have to be built, or when they were given up on (over budget).
 */
export async function replayKeyframesReady(ctx: ServiceContext, id: string): Promise<boolean> {
  authorize(ctx, "trajectory:read");
  const { source } = await openSession(ctx, id);
  return source.keyframesReady();
}

/**
 * Event chunks covering [fromMs, toMs]. With `keyframe`, the answer starts at the nearest keyframe at or
 * before fromMs (and includes it), so the client can rebuild the screen at fromMs without earlier data.
 */
export async function getReplayRange(ctx: ServiceContext, id: string, q: ReplayRangeQuery): Promise<ReplayRange> {
  authorize(ctx, "trajectory:read");
  const { source } = await openSession(ctx, id);
  return (await readRange(source, q, Infinity))!;
}

/**
 * The keyframe range of a seek to `atMs` (nearest keyframe, then the chunks up to atMs' chunk) for the server to
 * emulate — null when that is more than `maxChunks` chunks (a recording replayed from a keyframe before its first
 * resize, or one without keyframes): the emulation must stay bounded work on the request thread.
 */
export async function getBoundedSeekRange(ctx: ServiceContext, id: string, atMs: number, maxChunks: number): Promise<ReplayRange | null> {
  authorize(ctx, "trajectory:read");
  const { source } = await openSession(ctx, id);
  return readRange(source, { fromMs: atMs, toMs: atMs, keyframe: "1" }, maxChunks);
}

async function readRange(source: ReplaySource, q: ReplayRangeQuery, maxSeekChunks: number): Promise<ReplayRange | null> {
  const chunks = source.index.chunks;
  if (!chunks.length) return { keyframe: null, chunks: [] };
  const target = chunkIndexAt(chunks, q.fromMs);
  const last = Math.max(target, chunkIndexAt(chunks, q.toMs ?? q.fromMs));
  // Without a keyframe: every chunk overlapping the range (several chunks can start at the same instant).
  let first = q.keyframe === "1" ? target : Math.min(target, firstEndingAtOrAfter(chunks, q.fromMs));
  let keyframe: ReplayRange["keyframe"] = null;
  if (q.keyframe === "1" && target > 0) {
    const k = await source.keyframeAtOrBefore(target);
    first = k ? k.seq : 0;
    keyframe = k && k.seq > 0 ? { ...k.keyframe, seq: k.seq } : null;
  }
  if (target - first + 1 > maxSeekChunks) return null;
  const end = Math.max(target, Math.min(last, first + MAX_RANGE_CHUNKS - 1));
  const read = await source.readChunks(first, end);
  // Always everything up to the target (needed to rebuild the screen), then only while under the size budget.
  let chars = 0;
  const out = read.filter((c) => {
    chars += c.events.reduce((n, e) => n + e[2].length, 0);
    return c.seq <= target || chars <= MAX_RANGE_CHARS;
  });
  return { keyframe, chunks: out };
}

function firstEndingAtOrAfter(chunks: readonly { endMs: number }[], ms: number): number {
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid]!.endMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Compute and store the replay layouts of trajectories that do not have one yet (after an import, for trajectories
 * big enough that laying them out on first view would delay the first frame). Returns how many were laid out.
 */
export async function warmReplayLayouts(ctx: ServiceContext, ids: readonly string[]): Promise<number> {
  authorize(ctx, "trajectory:import");
  let n = 0;
  for (const id of ids) {
    const head = await findTrajectoryHead(ctx.db, id);
    if (!head) continue;
    const opened = await openOrLoadSource(ctx.db, head);
    if (opened.stored) continue;
    await storeReplayLayout(ctx.db, opened.source);
    n++;
  }
  return n;
}

/**
 * Stop the replay work this process runs in the background (keyframe builds, layout saves) and wait until it has
 * settled, then forget cached sessions: call before the database goes away (tests' database teardown), so that no
 * build outlives it and reports a failure that is none.
 */
export async function stopReplayWork(): Promise<void> {
  await stopBackgroundWork();
  clearReplaySessions();
}

/** Test hook: forget cached sessions (e.g. between integration tests sharing a process). */
export function clearReplaySessions(): void {
  sessions().clear();
}
