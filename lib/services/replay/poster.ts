// The opening screen as a poster (lib/domain/replay/poster.ts): the page renders it as HTML so the first frame is
// on screen at first paint, before the terminal's scripts have loaded. Computed from the same keyframe and events
// the browser's player fetches, with the same emulator; a poster that is not ready in time is left out (the page
// then waits for the live terminal, as before) — it must never hold the page back for long: briefly while keyframes
// may still be building (their build is unbounded), longer once the poster is bounded work.
import { z } from "zod";
import type { ScreenPoster } from "../../domain/replay/poster.ts";
import { chunkIndexAt, type ReplayIndex } from "../../domain/replay/recording.ts";
import { authorize, type ServiceContext } from "../context.ts";
import { posterOfRange } from "./headless/poster.ts";
import { getBoundedSeekRange, getReplayManifest, replayKeyframesReady } from "./session.ts";

/** Longest the page waits for its poster while keyframes may still have to be built (a deep link right after an import). */
export const POSTER_WAIT_MS = 400;
/**
 * Longest it waits when the poster is bounded work — the first chunk, or a deep link once the keyframes are known
 * to be there (one keyframe and at most a chunk to emulate). A loaded server can take longer than POSTER_WAIT_MS
 * for that (measured: deep-link posters dropped under load), and without a poster the first frame waits for the
 * live terminal, seconds later.
 */
export const POSTER_WAIT_BOUNDED_MS = 1500;

/**
 * Most chunks a poster replays after its keyframe's chunk is the target's (keyframes are ≤ one chunk apart, so
 * normally 1–2): more — past a recording's first resize, or a session without keyframes — is not emulated here.
 */
export const MAX_POSTER_CHUNKS = 4;

export async function getOpeningPoster(
  ctx: ServiceContext,
  index: ReplayIndex,
  startMs: number,
  waitMs?: number,
): Promise<ScreenPoster | null> {
  if (!index.chunks.length) return null;
  const work = getBoundedSeekRange(ctx, index.trajectoryId, startMs, MAX_POSTER_CHUNKS).then((range) =>
    range ? posterOfRange(range, index, startMs) : null,
  );
  const bounded = chunkIndexAt(index.chunks, startMs) === 0 || (await replayKeyframesReady(ctx, index.trajectoryId).catch(() => false));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs ?? (bounded ? POSTER_WAIT_BOUNDED_MS : POSTER_WAIT_MS));
  });
  try {
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

export const replayScreenQuerySchema = z.object({ atMs: z.coerce.number().int().nonnegative() }).strict();
export type ReplayScreenQuery = z.infer<typeof replayScreenQuerySchema>;

/**
 * The exact screen at `atMs` as a poster, for a seek: the browser shows it at once (over the live terminal, or
 * in its place before the terminal is up) while its terminal rebuilds the same moment from a keyframe and the
 * events. `screen` is null when it is not bounded work yet (keyframes still building, over budget, a keyframe
 * too far back): the browser then waits for its terminal, as without it.
 */
export async function getReplayScreen(
  ctx: ServiceContext,
  id: string,
  q: ReplayScreenQuery,
): Promise<{ atMs: number; screen: ScreenPoster | null }> {
  authorize(ctx, "trajectory:read");
  const { index } = await getReplayManifest(ctx, id, { withSteps: false });
  const atMs = Math.min(q.atMs, index.durationMs);
  return { atMs, screen: await getOpeningPoster(ctx, index, atMs) };
}
