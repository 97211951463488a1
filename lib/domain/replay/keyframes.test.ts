import { describe, expect, it } from "vitest";
import { buildKeyframes, feedEvents, type TerminalEmulator } from "./keyframes.ts";
import { TerminalSanitizer } from "./sanitize.ts";
import type { ReplayEvent } from "./recording.ts";

/** A stand-in terminal that keeps what it was given, so tests can see exactly what reached it. */
class RecordingEmulator implements TerminalEmulator {
  text = "";
  sizes: string[] = [];
  disposed = false;
  constructor(cols: number, rows: number) {
    this.sizes.push(`${cols}x${rows}`);
  }
  async write(data: string) {
    this.text += data;
  }
  resize(cols: number, rows: number) {
    this.sizes.push(`${cols}x${rows}`);
  }
  serialize() {
    return this.text;
  }
  dispose() {
    this.disposed = true;
  }
}

async function* chunks(list: ReplayEvent[][]) {
  for (const [seq, events] of list.entries()) yield { seq, events };
}

describe("feedEvents", () => {
  it("writes sanitized output, applies resizes and ignores input and markers", async () => {
    const term = new RecordingEmulator(80, 24);
    const feed = { sanitizer: new TerminalSanitizer(), cols: 80, rows: 24 };
    const n = await feedEvents(term, feed, [
      [0, "o", "a\u001b]0;t\u0007b"],
      [1, "i", "typed"],
      [2, "m", "step 1"],
      [3, "r", "100x30"],
      [4, "r", "bad"],
      [5, "o", "c"],
    ]);
    expect(term.text).toBe("abc");
    expect(n).toBe(3);
    expect(term.sizes).toEqual(["80x24", "100x30"]);
    expect([feed.cols, feed.rows]).toEqual([100, 30]);
  });
});

describe("buildKeyframes", () => {
  it("takes a keyframe at the start and then after each interval of output, with the sanitizer state", async () => {
    const made: RecordingEmulator[] = [];
    const factory = (c: number, r: number) => {
      const e = new RecordingEmulator(c, r);
      made.push(e);
      return e;
    };
    const list: ReplayEvent[][] = [
      [[0, "o", "12345"]],
      [[10, "o", "67890\u001b]52;c;"]], // an OSC left open at the chunk boundary
      [[20, "o", "xx\u0007ab"]],
      [[30, "o", "cdefghij"]],
      [[40, "o", "k"]],
    ];
    const out = [];
    for await (const k of buildKeyframes(chunks(list), factory, { cols: 80, rows: 24 }, 8)) out.push(k);
    expect(out.map((k) => k.seq)).toEqual([0, 2, 4]);
    expect(out[0]!.keyframe).toMatchObject({ cols: 80, rows: 24, data: "" });
    expect(out[1]!.keyframe.data).toBe("1234567890");
    expect(out[1]!.keyframe.sanitizer.pending).toBe("\u001b]52;c;");
    expect(out[2]!.keyframe).toMatchObject({ cols: 80, rows: 24, data: "1234567890abcdefghij" });
    expect(made[0]!.disposed).toBe(true);
  });

  it("takes none after the first resize (a seek past it replays from the keyframe before it)", async () => {
    const list: ReplayEvent[][] = [
      [[0, "o", "12345678"]],
      [
        [10, "o", "abcdefgh"],
        [11, "r", "90x20"],
      ],
      [[20, "o", "ijklmnop"]],
      [[30, "o", "q"]],
    ];
    const out = [];
    for await (const k of buildKeyframes(chunks(list), (c, r) => new RecordingEmulator(c, r), { cols: 80, rows: 24 }, 8)) out.push(k);
    expect(out.map((k) => k.seq)).toEqual([0, 1]);
  });

  it("keeps taking them after a malformed resize event (it changes nothing)", async () => {
    const list: ReplayEvent[][] = [
      [[0, "o", "12345678"]],
      [
        [10, "r", "bad"],
        [11, "o", "abcdefgh"],
      ],
      [[20, "o", "q"]],
    ];
    const out = [];
    for await (const k of buildKeyframes(chunks(list), (c, r) => new RecordingEmulator(c, r), { cols: 80, rows: 24 }, 8)) out.push(k);
    expect(out.map((k) => k.seq)).toEqual([0, 1, 2]);
  });
});
