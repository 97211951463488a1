import { describe, expect, it } from "vitest";
import { copyLines, copyText } from "./pg-copy.ts";

describe("COPY text encoding", () => {
  it("escapes the characters COPY gives meaning to and writes NULL as \\N", () => {
    expect(copyText(null)).toBe("\\N");
    expect(copyText("\\N")).toBe("\\\\N");
    expect(copyText("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(copyText("plain ünïcode ✓")).toBe("plain ünïcode ✓");
    expect(copyText(true)).toBe("t");
    expect(copyText(false)).toBe("f");
    expect(copyText(0.25)).toBe("0.25");
    expect(copyText(-3)).toBe("-3");
    expect(copyText(Number.NaN)).toBe("NaN");
    expect(copyText(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });

  it("writes one line per row, tab-separated, split into pieces without cutting a row", () => {
    const rows = Array.from({ length: 50 }, (_, i) => [`id-${i}`, i, i % 2 === 0 ? null : "x\ty"]);
    const pieces = [...copyLines(rows, 100)];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.endsWith("\n"))).toBe(true);
    const lines = pieces.join("").split("\n").slice(0, -1);
    expect(lines).toHaveLength(50);
    expect(lines[0]).toBe("id-0\t0\t\\N");
    expect(lines[1]).toBe("id-1\t1\tx\\ty");
  });
});
