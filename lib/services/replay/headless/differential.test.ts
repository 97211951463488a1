// Differential test of keyframes: at many random points of many sessions, a terminal restored from the nearest
// keyframe and fed the events after it shows the same screen — every cell's text, width, colours and attributes,
// the cursor, and the hidden state (scroll margins, saved cursor, modes, charsets, tab stops) — as a terminal that
// replayed everything from the start.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseResize, type ReplayEvent } from "../../../domain/replay/recording.ts";
import { mulberry32 } from "../../../domain/random.ts";
import { fixture, hasSharedFixtures, sharedFixturesSkipReason } from "../../../../tests/helpers/shared-fixtures.ts";
import { chunkEvents, compareSeeks, keyframesOf, type SeekPoint } from "./differential.ts";
import { generateSession } from "./session-corpus.ts";

function randomPoints(seed: number, chunks: { events: unknown[] }[], n: number): SeekPoint[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const chunk = Math.floor(rng() * chunks.length);
    return { chunk, event: Math.floor(rng() * (chunks[chunk]!.events.length + 1)) };
  });
}

/** asciicast v2 (absolute times) or v3 (intervals) → events and size; lines that are not events are skipped. */
function readCast(file: string): { cols: number; rows: number; events: ReplayEvent[] } | null {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  let header: { version?: number; width?: number; height?: number; term?: { cols?: number; rows?: number } };
  try {
    header = JSON.parse(lines[0]!);
  } catch {
    return null;
  }
  const cols = header.width ?? header.term?.cols ?? 80;
  const rows = header.height ?? header.term?.rows ?? 24;
  const events: ReplayEvent[] = [];
  let t = 0;
  for (const line of lines.slice(1)) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!Array.isArray(v) || typeof v[0] !== "number" || typeof v[1] !== "string" || typeof v[2] !== "string") continue;
    t = header.version === 3 ? t + v[0] * 1000 : v[0] * 1000;
    if (v[1] === "o" || (v[1] === "r" && parseResize(v[2]))) events.push([Math.round(t), v[1], v[2]]);
  }
  return { cols, rows, events };
}

const totals = { sessions: 0, seeks: 0, skipped: 0, keyframes: 0, afterResize: 0 };

function count(r: { compared: number; skipped: number }, keyframes: number): void {
  totals.sessions++;
  totals.seeks += r.compared;
  totals.skipped += r.skipped;
  totals.keyframes += keyframes;
}

/** True when a resize comes before the point (a seek there crosses or follows one). */
function resizedBefore(chunks: readonly { events: ReplayEvent[] }[], p: SeekPoint): boolean {
  return chunks.slice(0, p.chunk + 1).some((c, i) => (i === p.chunk ? c.events.slice(0, p.event) : c.events).some((e) => e[1] === "r"));
}

describe("keyframe seeks show the same screen as a replay from the start", () => {
  const seeds = Array.from({ length: 16 }, (_, i) => 1000 + i);
  // The rarer modes (session-corpus.ts: exotic) are not yet seek-exact: see docs/benchmarks.md (replay).
  it.each(seeds)("generated session #%i", async (seed) => {
    const s = generateSession(seed, { resizes: false });
    const chunks = chunkEvents(s.events, 600);
    const keyframes = await keyframesOf(chunks, s, 1500);
    expect(keyframes.size).toBeGreaterThan(3);
    const points = randomPoints(seed, chunks, 60);
    const r = await compareSeeks(chunks, s, keyframes, points);
    count(r, keyframes.size);
    expect(r.mismatches.slice(0, 1)).toEqual([]);
    expect(r.compared).toBeGreaterThan(points.length / 2);
  });

  // The same sessions with resizes mixed in (2 % of operations): a seek past a resize replays from the last
  // keyframe before the first resize (keyframes.ts), so it is as exact as the others.
  it.each(seeds)("generated session #%i with resizes", async (seed) => {
    const s = generateSession(seed, { resizes: true });
    const chunks = chunkEvents(s.events, 600);
    const keyframes = await keyframesOf(chunks, s, 1500);
    const points = randomPoints(seed, chunks, 60);
    const r = await compareSeeks(chunks, s, keyframes, points);
    count(r, keyframes.size);
    totals.afterResize += points.filter((p) => resizedBefore(chunks, p)).length;
    expect(r.mismatches.slice(0, 1)).toEqual([]);
    expect(r.skipped).toBe(0);
  });

  it("the status line below a scroll region survives a seek (the reported case)", async () => {
    const rows = 24;
    const events: ReplayEvent[] = [[0, "o", `${"\u001b"}[1;${rows - 1}r`]];
    for (let i = 0; i < 300; i++) {
      events.push([i * 10 + 1, "o", `line ${i}\r\n`]);
      events.push([i * 10 + 2, "o", `\u001b7\u001b[${rows};1H\u001b[7mstatus ${i}\u001b[0m\u001b8`]);
    }
    const chunks = chunkEvents(events, 300);
    const keyframes = await keyframesOf(chunks, { cols: 80, rows }, 600);
    const last = chunks.length - 1;
    const r = await compareSeeks(chunks, { cols: 80, rows }, keyframes, [{ chunk: last, event: chunks[last]!.events.length }]);
    expect(r).toEqual({ compared: 1, skipped: 0, mismatches: [] });
  });

  const casts = hasSharedFixtures ? fs.readdirSync(fixture("asciicast")).filter((f) => f.endsWith(".cast")) : [];
  it.skipIf(!hasSharedFixtures).each(casts.length ? casts : ["(none)"])(
    `shared fixture %s ${hasSharedFixtures ? "" : sharedFixturesSkipReason}`,
    async (name) => {
      const cast = readCast(fixture("asciicast", name));
      if (!cast || !cast.events.length) return; // broken or empty fixtures are the importer's business
      const big = cast.events.reduce((n, e) => n + e[2].length, 0) > 1_000_000;
      // Production chunking for the large recording; small ones scaled down so that they have several keyframes.
      const chunks = chunkEvents(cast.events, big ? 64 * 1024 : 200);
      const keyframes = await keyframesOf(chunks, cast, big ? 128 * 1024 : 400);
      const points = randomPoints(name.length, chunks, big ? 25 : 30);
      const r = await compareSeeks(chunks, cast, keyframes, points);
      count(r, keyframes.size);
      totals.afterResize += points.filter((p) => resizedBefore(chunks, p)).length;
      expect(r.mismatches.slice(0, 1)).toEqual([]);
      expect(r.skipped).toBe(0);
    },
  );

  it("reports what it compared", () => {
    console.log(
      `[differential] ${totals.sessions} sessions, ${totals.keyframes} keyframes, ${totals.seeks} seeks compared cell by cell, ${totals.afterResize} of them after a resize (${totals.skipped} points skipped: xterm state no byte stream recreates)`,
    );
    expect(totals.seeks).toBeGreaterThan(0);
  });
});
