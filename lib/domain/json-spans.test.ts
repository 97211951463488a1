import { describe, expect, it } from "vitest";
import { nestingDepth, topLevelArraySpans, utf8Length } from "./json-spans.ts";

const pieces = (t: string) => topLevelArraySpans(t)?.map(([s, e]) => t.slice(s, e));

describe("topLevelArraySpans", () => {
  it("finds each top-level element, ignoring brackets and commas inside strings and nested values", () => {
    expect(pieces(' [ {"a":"x,]}\\"["}, [1,[2]] ,"s", 3 ,null]\n')).toEqual(['{"a":"x,]}\\"["}', "[1,[2]]", '"s"', "3", "null"]);
    expect(pieces("[]")).toEqual([]);
  });
  it("is null for non-arrays, cut-off arrays and trailing text (the parser then reports them)", () => {
    expect(topLevelArraySpans('{"a":[1,2]}')).toBeNull();
    expect(topLevelArraySpans("[1, 2")).toBeNull();
    expect(topLevelArraySpans("[1] [2]")).toBeNull();
  });
  it("survives deep nesting without recursion", () => {
    const deep = `[${"[".repeat(200_000)}${"]".repeat(200_000)}, 1]`;
    expect(topLevelArraySpans(deep)?.length).toBe(2);
  });
});

describe("utf8Length", () => {
  it("counts UTF-8 bytes like Buffer.byteLength", () => {
    for (const s of ["", "abc", "é", "€", "😀 x", "\u0000\u07ff\u0800"]) expect(utf8Length(s)).toBe(Buffer.byteLength(s));
  });
});

describe("nestingDepth", () => {
  it("counts nesting outside strings and stops early past the limit", () => {
    expect(nestingDepth('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
    expect(nestingDepth("1")).toBe(0);
    expect(nestingDepth("[".repeat(1_000_000), 0, 1_000_000, 10)).toBe(11);
  });
});
