import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines, formatPath, lineOf } from "./util";
import type { ImportSource } from "./types";

function sourceOf(chunks: (string | Buffer)[]): Extract<ImportSource, { kind: "file" }> {
  return {
    kind: "file",
    path: "/x",
    displayPath: "x",
    head: "",
    size: 0,
    open: () => Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))),
  };
}

async function lines(chunks: (string | Buffer)[], max?: number) {
  const out: { text: string; lineNo: number; tooLong?: boolean }[] = [];
  for await (const l of readLines(sourceOf(chunks), max)) out.push(l);
  return out;
}

describe("readLines", () => {
  it("splits across chunk boundaries, strips CR, keeps a last line without newline", async () => {
    expect(await lines(["ab", "c\r\nde", "f\n\ngh"])).toEqual([
      { text: "abc", lineNo: 1 },
      { text: "def", lineNo: 2 },
      { text: "", lineNo: 3 },
      { text: "gh", lineNo: 4 },
    ]);
  });

  it("joins a line spread over many chunks once, with a CR split from its LF", async () => {
    const long = "x".repeat(1000);
    const chunks = [...Array.from({ length: 50 }, () => long), "\r", "\nnext\r", "\n"];
    const out = await lines(chunks);
    expect(out.map((l) => [l.text.length, l.lineNo])).toEqual([
      [50_000, 1],
      [4, 2],
    ]);
    expect(out[0]!.text).toBe(long.repeat(50));
    expect(out[1]!.text).toBe("next");
  });

  it("decodes a multi-byte character split between chunks", async () => {
    const euro = Buffer.from("€\n");
    expect(await lines([euro.subarray(0, 1), euro.subarray(1)])).toEqual([{ text: "€", lineNo: 1 }]);
  });

  it("reports an over-long line once, skips it and continues with the next", async () => {
    const out = await lines(["ok\n", "x".repeat(30), "x".repeat(30), "x".repeat(30) + "\nnext\n"], 50);
    expect(out).toEqual([
      { text: "ok", lineNo: 1 },
      { text: "", lineNo: 2, tooLong: true },
      { text: "next", lineNo: 3 },
    ]);
  });
});

describe("error locations", () => {
  it("formats zod paths like steps[12].observation", () => {
    expect(formatPath(["steps", 12, "observation"])).toBe("steps[12].observation");
  });
  it("finds the line of an offset", () => {
    expect(lineOf("a\nbc\nd", 4)).toEqual({ line: 2, column: 3 });
  });
});
