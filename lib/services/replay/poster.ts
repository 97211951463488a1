// The opening screen as a poster (lib/domain/replay/poster.ts): the page renders it as HTML so the first frame is
// on screen at first paint, before the terminal's scripts have loaded. Computed from the same keyframe and events
// the browser's player fetches, with the same emulator; a poster that is not ready in time is left out (the page
// then waits for the live terminal, as before) — it must never hold the page back.
import type { ScreenPoster } from "../../domain/replay/poster.ts";
import type { ReplayIndex } from "../../domain/replay/recording.ts";
import type { ServiceContext } from "../context.ts";
import { posterOfRange } from "./headless/poster.ts";
import { getReplayRange } from "./session.ts";

/** Longest the page waits for its poster (a deep link right after an import may wait for keyframes). */
export const POSTER_WAIT_MS = 400;

export async function getOpeningPoster(ctx: ServiceContext, index: ReplayIndex, startMs: number, waitMs = POSTER_WAIT_MS): Promise<ScreenPoster | null> {
  if (!index.chunks.length) return null;
  const work = getReplayRange(ctx, index.trajectoryId, { fromMs: startMs, toMs: startMs, keyframe: "1" }).then((range) => posterOfRange(range, index, startMs));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
