import { describe, expect, it } from "vitest";
import { displaySafe, displayText } from "./display-text.ts";

describe("displayText", () => {
  it("normalizes what the HTML parser would change, and nothing else", () => {
    expect(displayText("a\r\nb\rc\u0000d\ud800e")).toBe("a\nb\nc\ufffdd\ufffde");
    expect(displayText("😀 \t\x1b[31m ok")).toBe("😀 \t\x1b[31m ok");
  });
});

describe("displaySafe", () => {
  it("fixes strings deep inside plain data and keeps untouched parts (and Dates) identical", () => {
    const when = new Date(0);
    const clean = { a: ["x"], b: 1 };
    const input = { clean, steps: [{ action: "ls\r\n", at: when }], name: "t" };
    const out = displaySafe(input);
    expect(out).toEqual({ clean, steps: [{ action: "ls\n", at: when }], name: "t" });
    expect(out.clean).toBe(clean);
    expect(out.steps[0]!.at).toBe(when);
    expect(input.steps[0]!.action).toBe("ls\r\n");
    const same = { x: ["fine"] };
    expect(displaySafe(same)).toBe(same);
  });
});
