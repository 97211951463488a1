import { describe, expect, it } from "vitest";
import { toCsv } from "./csv.ts";

describe("toCsv", () => {
  it("quotes what needs quoting and leaves numbers and blanks plain", () => {
    expect(toCsv(["a", "b"], [["x,y", 0.5], ['say "hi"', null], ["line\nbreak", Number.NaN]])).toBe('a,b\r\n"x,y",0.5\r\n"say ""hi""",\r\n"line\nbreak",\r\n');
  });
  it("keeps formula-like names as text", () => {
    expect(toCsv(["task"], [["=HYPERLINK(1)"], ["-rm"], ["ok"]])).toBe("task\r\n'=HYPERLINK(1)\r\n'-rm\r\nok\r\n");
  });
});
