// The browser's terminal driver, run against a headless xterm: every seek — answered by the server (nearest keyframe
// + chunks) or from the keyframes and chunks it kept — shows the screen of a replay from the start, cell by cell;
// and seeks back into ranges seen before are answered without a request.
import { describe, expect, it } from "vitest";
import { TerminalDriver, type RangeFetcher } from "../../components/replay/terminal-driver.ts";
import { ReplayPlayer } from "../../components/replay/replay-player.ts";
import { sanitizedHandle } from "../../components/terminal/sanitized-handle.ts";
import { mulberry32 } from "../../lib/domain/random.ts";
import { chunkIndexAt, type ReplayIndex, type ReplayRange } from "../../lib/domain/replay/recording.ts";
import { chunkEvents, keyframesOf, Player, screenCells } from "../../lib/services/replay/headless/differential.ts";
import { createHeadlessTerminal } from "../../lib/services/replay/headless/emulator.ts";
import { generateSession } from "../../lib/services/replay/headless/session-corpus.ts";

/** TerminalView's handle (the same sanitizedHandle), over a headless xterm. */
function headlessHandle(cols: number, rows: number) {
  const term = createHeadlessTerminal(cols, rows);
  const handle = sanitizedHandle(term, cols, rows, { text: () => "", screen: () => "", selection: () => "" });
  return { handle, cells: () => screenCells(term), dispose: () => term.dispose() };
}

describe("TerminalDriver", () => {
  it("seeks exactly, from the server's ranges and from what it kept", async () => {
    let seeks = 0;
    let requests = 0;
    for (const seed of [5, 17]) {
      const s = generateSession(seed, { operations: 400 });
      const size = { cols: s.cols, rows: s.rows };
      const chunks = chunkEvents(s.events, 4096).map((ch) => ({ ...ch, startMs: ch.events[0]![0], endMs: ch.events.at(-1)![0] }));
      const keyframes = await keyframesOf(chunks, size, 8192);
      const index: ReplayIndex = {
        trajectoryId: "t",
        source: "recording",
        format: "asciicast-v2",
        cols: s.cols,
        rows: s.rows,
        durationMs: chunks.at(-1)!.endMs,
        idleTimeLimitMs: null,
        chunks: chunks.map(({ seq, startMs, endMs }) => ({ seq, startMs, endMs })),
        steps: [],
        stepTimingSource: "markers",
        gaps: [],
      };
      // The server's answer (lib/services/replay/session.ts getReplayRange): nearest keyframe at or before the
      // target chunk, then the chunks from it (with keyframe=0: the chunk holding fromMs and the next).
      const fetchRange: RangeFetcher = async (fromMs, _toMs, keyframe) => {
        requests++;
        const target = chunkIndexAt(chunks, fromMs);
        if (!keyframe) return { keyframe: null, chunks: chunks.slice(target, target + 2) };
        const k = Math.max(0, ...[...keyframes.keys()].filter((seq) => seq <= target));
        const range: ReplayRange = { keyframe: k > 0 ? { ...keyframes.get(k)!, seq: k } : null, chunks: chunks.slice(k, target + 1) };
        return range;
      };
      const view = headlessHandle(s.cols, s.rows);
      const driver = new TerminalDriver(index, fetchRange);
      driver.attach(view.handle);
      const rng = mulberry32(seed);
      const times: number[] = [];
      for (let i = 0; i < 12; i++) {
        const t = Math.floor(rng() * index.durationMs);
        // A seek, then back a little and forward a little (served from memory when the ranges are kept).
        times.push(t, Math.max(0, t - 200), t + 150);
      }
      for (const t of times) {
        await driver.show(t);
        // (The next chunk's prefetch after a seek waits 300 ms and the next seek cancels it: these seeks do not use it.)
        const reference = new Player(s.cols, s.rows);
        await reference.play(s.events.filter((e) => e[0] <= Math.min(t, index.durationMs)));
        expect(view.cells(), `${s.name}: seek to ${t} ms`).toEqual(screenCells(reference.term));
        reference.dispose();
        seeks++;
      }
      view.dispose();
    }
    expect(seeks).toBe(72);
    // Without the kept keyframes every backward seek and every seek past the next chunk was a request.
    expect(requests).toBeLessThan(seeks);
  });

  it("fetches the chunk after a seek only when no other seek follows at once", async () => {
    const s = generateSession(3, { operations: 600 });
    const chunks = chunkEvents(s.events, 2048).map((ch) => ({ ...ch, startMs: ch.events[0]![0], endMs: ch.events.at(-1)![0] }));
    expect(chunks.length).toBeGreaterThan(8);
    const index: ReplayIndex = {
      trajectoryId: "t",
      source: "recording",
      format: "asciicast-v2",
      cols: s.cols,
      rows: s.rows,
      durationMs: chunks.at(-1)!.endMs,
      idleTimeLimitMs: null,
      chunks: chunks.map(({ seq, startMs, endMs }) => ({ seq, startMs, endMs })),
      steps: [],
      stepTimingSource: "markers",
      gaps: [],
    };
    const asked: { seq: number; keyframe: boolean }[] = [];
    const fetchRange: RangeFetcher = async (fromMs, _toMs, keyframe) => {
      const target = chunkIndexAt(chunks, fromMs);
      asked.push({ seq: target, keyframe });
      return { keyframe: null, chunks: keyframe ? chunks.slice(0, target + 1) : chunks.slice(target, target + 2) };
    };
    const view = headlessHandle(s.cols, s.rows);
    const driver = new TerminalDriver(index, fetchRange);
    driver.attach(view.handle);
    const at = (i: number) => Math.floor((chunks[i]!.startMs + chunks[i]!.endMs) / 2);
    // Two seeks back to back: the first one's next chunk is never asked for.
    await driver.show(at(2));
    await driver.show(at(6));
    expect(asked).toEqual([
      { seq: 2, keyframe: true },
      { seq: 6, keyframe: true },
    ]);
    // Left alone, the chunk after the last seek is fetched (playback will need it).
    await new Promise((r) => setTimeout(r, 400));
    expect(asked.at(-1)).toEqual({ seq: 7, keyframe: false });
    expect(asked.some((a) => a.seq === 3)).toBe(false);
    // Detached right after a seek (the reader left the page): the waiting prefetch is dropped.
    asked.length = 0;
    const leaving = new TerminalDriver(index, fetchRange);
    leaving.attach(view.handle);
    await leaving.show(at(2));
    leaving.attach(null);
    await new Promise((r) => setTimeout(r, 400));
    expect(asked).toEqual([{ seq: 2, keyframe: true }]);
    view.dispose();
  });

  it("resolves a seek asked before the terminal exists only once the terminal shows it", async () => {
    const s = generateSession(9, { operations: 200 });
    const chunks = chunkEvents(s.events, 4096).map((ch) => ({ ...ch, startMs: ch.events[0]![0], endMs: ch.events.at(-1)![0] }));
    const index: ReplayIndex = {
      trajectoryId: "t",
      source: "recording",
      format: "asciicast-v2",
      cols: s.cols,
      rows: s.rows,
      durationMs: chunks.at(-1)!.endMs,
      idleTimeLimitMs: null,
      chunks: chunks.map(({ seq, startMs, endMs }) => ({ seq, startMs, endMs })),
      steps: [],
      stepTimingSource: "markers",
      gaps: [],
    };
    const requested: number[] = [];
    const fetchRange: RangeFetcher = async (fromMs, _toMs, keyframe) => {
      if (keyframe) requested.push(fromMs); // (not the read-ahead of the next chunk)
      return { keyframe: null, chunks: chunks.slice(0, chunkIndexAt(chunks, fromMs) + 1) };
    };
    const player = new ReplayPlayer(index, [], fetchRange, { idleCap: null, speed: 1, startMs: 0 });
    player.prepare();
    const t = Math.floor(index.durationMs * 0.6);
    let done = false;
    const seek = player.seek(t).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done, "resolved with no terminal to show it on").toBe(false);
    // The seek's data is fetched while the terminal loads (after the opening point's), not when it attaches.
    expect(requested).toEqual([0, t]);
    const view = headlessHandle(s.cols, s.rows);
    player.attach(view.handle);
    await seek;
    expect(requested, "the terminal used the range fetched before it existed: no seek request after it attached").toEqual([0, t]);
    const reference = new Player(s.cols, s.rows);
    await reference.play(s.events.filter((e) => e[0] <= t));
    expect(view.cells()).toEqual(screenCells(reference.term));
    reference.dispose();
    // (player.dispose() pauses its animation-frame clock: browser only)
    view.dispose();
  });
});
