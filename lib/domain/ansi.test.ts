import { describe, expect, it } from "vitest";
import { stripAnsi } from "./ansi";

describe("stripAnsi", () => {
  it("removes CSI colour codes and OSC sequences", () => {
    expect(stripAnsi("\u001b[1;32mok\u001b[0m \u001b]0;title\u0007done \u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\")).toBe(
      "ok done link",
    );
  });
  it("resolves carriage-return overwrites like a terminal", () => {
    expect(stripAnsi("progress 10%\rprogress 100%\nnext")).toBe("progress 100%\nnext");
  });
  it("drops other control characters but keeps tabs and newlines", () => {
    expect(stripAnsi("a\u0007b\tc\nd\u0000")).toBe("ab\tc\nd");
  });
});

describe("stripAnsi fast paths", () => {
  it("returns plain text unchanged (same string)", () => {
    const plain = "total 4\ndrwxr-xr-x 2 root root 4096 .\n\tindented";
    expect(stripAnsi(plain)).toBe(plain);
  });
  it("treats CRLF line ends as plain newlines and still resolves a CR inside a line", () => {
    expect(stripAnsi("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(stripAnsi("50%\r100%\r\ndone\r\n")).toBe("100%\ndone\n");
  });
  it("removes a lone ESC and C1 CSI sequences", () => {
    expect(stripAnsi("a\u001bb \u009b31mred")).toBe("ab red");
  });
  it("drops controls inside a CR-overwritten line without shifting the overwrite", () => {
    expect(stripAnsi("abc\u0007\rX")).toBe("Xbc");
  });
});
