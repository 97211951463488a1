import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv.ts";

describe("toCsv", () => {
  it("quotes what needs quoting and leaves numbers and blanks plain", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["x,y", 0.5],
          ['say "hi"', null],
          ["line\nbreak", Number.NaN],
        ],
      ),
    ).toBe('a,b\r\n"x,y",0.5\r\n"say ""hi""",\r\n"line\nbreak",\r\n');
  });
  it("keeps formula-like names as text", () => {
    expect(toCsv(["task"], [["=HYPERLINK(1)"], ["-rm"], ["-1"], ["ok"]])).toBe(`task\r\n"'=HYPERLINK(1)"\r\n"'-rm"\r\n-1\r\nok\r\n`);
  });
});

describe("csvField", () => {
  it("quotes per RFC 4180", () => {
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField("x\ny")).toBe('"x\ny"');
    expect(csvField("x\ry")).toBe('"x\ry"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });
  it("neutralizes spreadsheet formulas (OWASP CSV injection) but leaves plain numbers", () => {
    for (const bad of ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=1"]) {
      const f = csvField(bad);
      expect(f.startsWith(`"'`)).toBe(true);
      expect(f.slice(2, -1).replaceAll('""', '"')).toBe(bad);
    }
    expect(csvField("-1")).toBe("-1");
    expect(csvField("+2.5")).toBe("+2.5");
    expect(csvField("usable")).toBe("usable");
    expect(csvField(-3)).toBe("-3");
    expect(csvField(Number.POSITIVE_INFINITY)).toBe("");
  });
});
