// The poster (the opening screen the page renders as HTML) must be the screen the player will draw: the same
// text and styles as a terminal that replayed everything from the start, also after a keyframe seek into
// sessions with scroll regions, alternate screens and wide characters.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../domain/random.ts";
import { posterText, RGB_FLAG } from "../../../domain/replay/poster.ts";
import type { ReplayRange } from "../../../domain/replay/recording.ts";
import { chunkEvents, keyframesOf, Player } from "./differential.ts";
import { posterOfRange, screenPoster } from "./poster.ts";
import { generateSession } from "./session-corpus.ts";

describe("screenPoster", () => {
  it("merges cells into runs and keeps colours and attributes", async () => {
    const p = new Player(20, 3);
    await p.write("\u001b[1;31mred\u001b[0m plain\r\n\u001b[38;2;1;2;3;48;5;200mrgb\u001b[0m \u001b[7;4minv\u001b[0m\r\n中文x");
    const poster = screenPoster(p.term);
    p.dispose();
    expect(poster.cols).toBe(20);
    expect(poster.lines).toHaveLength(3);
    expect(poster.lines[0]![0]).toEqual(["red", { fg: 1, b: 1 }]);
    expect(poster.lines[0]![1]![0]).toBe(` plain${" ".repeat(11)}`);
    expect(poster.lines[0]![1]![1]).toEqual({});
    expect(poster.lines[1]![0]).toEqual(["rgb", { fg: RGB_FLAG + 0x010203, bg: 200 }]);
    expect(poster.lines[1]![2]).toEqual(["inv", { u: 1, v: 1 }]);
    // A wide character is one piece of text; its second cell adds none, so the row is still 20 cells wide.
    expect(poster.lines[2]![0]![0]).toBe(`中文x${" ".repeat(15)}`);
    expect(posterText(poster).split("\n")).toEqual(["red plain", "rgb inv", "中文x"]);
  });
});

describe("posterOfRange", () => {
  it("equals the screen of a replay from the start, at random times after keyframe seeks", async () => {
    let compared = 0;
    for (const seed of [3, 11, 29]) {
      const s = generateSession(seed, { operations: 300 });
      const size = { cols: s.cols, rows: s.rows };
      const chunks = chunkEvents(s.events, 4096);
      const keyframes = await keyframesOf(chunks, size, 4096);
      const rng = mulberry32(seed);
      for (let n = 0; n < 8; n++) {
        const c = Math.floor(rng() * chunks.length);
        const events = chunks[c]!.events;
        const t = events[Math.floor(rng() * events.length)]![0];
        // What the server answers for a keyframe seek to t: the nearest keyframe at or before t's chunk, then chunks.
        const target = chunks.findLastIndex((ch) => ch.events[0]![0] <= t);
        const k = Math.max(...[...keyframes.keys()].filter((seq) => seq <= Math.max(0, target)));
        const kf = keyframes.get(k)!;
        const range: ReplayRange = {
          keyframe: k > 0 ? { ...kf, seq: k } : null,
          chunks: chunks.slice(k).map((ch) => ({ ...ch, startMs: ch.events[0]![0], endMs: ch.events.at(-1)![0] })),
        };
        const poster = await posterOfRange(range, size, t);
        const reference = new Player(s.cols, s.rows);
        await reference.play(s.events.filter((e) => e[0] <= t));
        expect(poster, `${s.name} at ${t} ms (keyframe ${k})`).toEqual(screenPoster(reference.term));
        reference.dispose();
        compared++;
      }
    }
    expect(compared).toBe(24);
  });
});
