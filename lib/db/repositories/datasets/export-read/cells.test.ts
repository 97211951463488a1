// The export reader renders dates without Date objects on its fast paths; they must agree with Date#toISOString
// (what the Prisma read gave) for every shape the databases hand back.
import { describe, expect, it } from "vitest";
import { parseToolCalls, toolCallsSchema } from "./assemble.ts";
import { pgCells } from "./postgres.ts";
import { sqliteCells } from "./sqlite.ts";

const dates = [
  new Date("2026-10-01T08:00:24.331Z"),
  new Date("2026-10-01T08:00:24.300Z"),
  new Date("2026-10-01T08:00:24.000Z"),
  new Date("1999-12-31T23:59:59.999Z"),
  new Date(0),
];

describe("export reader cells", () => {
  it("SQLite: Prisma's ISO text with +00:00 or Z, epoch milliseconds and other text all become toISOString()", () => {
    for (const d of dates) {
      const want = d.toISOString();
      expect(sqliteCells.iso(want.replace("Z", "+00:00"))).toBe(want);
      expect(sqliteCells.iso(want)).toBe(want);
      expect(sqliteCells.iso(d.getTime())).toBe(want);
    }
    expect(sqliteCells.iso("2026-10-01T10:00:24.331+02:00")).toBe("2026-10-01T08:00:24.331Z");
    expect([sqliteCells.bool(1), sqliteCells.bool(0), sqliteCells.bool(null)]).toEqual([true, false, false]);
  });

  it("PostgreSQL: timestamp text with 0–6 fraction digits becomes toISOString()", () => {
    expect(pgCells.iso("2026-10-01 08:00:24.331")).toBe("2026-10-01T08:00:24.331Z");
    expect(pgCells.iso("2026-10-01 08:00:24.3")).toBe("2026-10-01T08:00:24.300Z");
    expect(pgCells.iso("2026-10-01 08:00:24")).toBe("2026-10-01T08:00:24.000Z");
    expect(pgCells.iso("1970-01-01 00:00:00")).toBe(new Date(0).toISOString());
    expect([pgCells.bool(true), pgCells.bool(false)]).toEqual([true, false]);
  });

  it("tool calls: the hand check gives what zod gives (same keys in the same order) and refuses what zod refuses", () => {
    const good = [
      `[]`,
      `[{"id":"c1","name":"bash","arguments":{"keystrokes":"ls\\n","duration":1}}]`,
      `[{"arguments":"{}","name":"f","id":"x","extra":[1,2]},{"name":"g"},{"name":"h","arguments":null},{"name":"i","arguments":[1,"2"]}]`,
    ];
    for (const text of good)
      expect(JSON.stringify(parseToolCalls(text, "t"))).toBe(JSON.stringify(toolCallsSchema.parse(JSON.parse(text))));
    for (const text of [
      `{}`,
      `[1]`,
      `[null]`,
      `[[]]`,
      `[{"id":"x"}]`,
      `[{"name":1}]`,
      `[{"name":"f","id":null}]`,
      `[{"name":"f","id":3}]`,
    ]) {
      expect(toolCallsSchema.safeParse(JSON.parse(text)).success).toBe(false);
      expect(() => parseToolCalls(text, "t")).toThrow(/stored t is malformed/);
    }
  });
});
