import { describe, expect, it } from "vitest";
import { buildStepMatch, snippet } from "./search-trajectories.ts";
import { parseSearchQuery } from "../../db/repositories/search/index.ts";

const text = (parts: { text: string }[]) => parts.map((p) => p.text).join("");
const hits = (parts: { text: string; hit: boolean }[]) => parts.filter((p) => p.hit).map((p) => p.text);

describe("step matches and snippets", () => {
  it("finds the first field that matches and marks every occurrence of the terms", () => {
    const m = buildStepMatch(
      { index: 4, action: "python3 app.py", observation: "Traceback\n  File app.py\nModuleNotFoundError: No module named 'numpy'\n" },
      parseSearchQuery("numpy module")!,
    );
    expect(m).toMatchObject({ stepIndex: 4, field: "observation" });
    expect(hits(m!.parts)).toEqual(["module", "numpy"]);
    expect(text(m!.parts)).toBe("Traceback File app.py ModuleNotFoundError: No module named 'numpy' ");
  });

  it("marks a phrase as one part and honours prefixes", () => {
    const m = buildStepMatch(
      { index: 0, observation: "Segmentation fault (core dumped)" },
      parseSearchQuery('"segmentation fault" core*')!,
    );
    expect(hits(m!.parts)).toEqual(["Segmentation fault", "core"]);
  });

  it("shows terminal output as plain text: escapes removed, nothing else interpreted", () => {
    const m = buildStepMatch({ index: 1, observation: "\u001b[31m<b>FAILED</b>\u001b[0m test_x" }, parseSearchQuery("failed")!);
    expect(text(m!.parts)).toBe("<b>FAILED</b> test_x");
    expect(hits(m!.parts)).toEqual(["FAILED"]);
  });

  it("cuts a window around the first hit with ellipses on long text", () => {
    const long = `${"lorem ".repeat(100)}NEEDLE ${"ipsum ".repeat(100)}`;
    const parts = snippet(long, [[600, 606]]);
    expect(parts[0]).toEqual({ text: "…", hit: false });
    expect(parts.at(-1)).toEqual({ text: "…", hit: false });
    expect(hits(parts)).toEqual(["NEEDLE"]);
    expect(text(parts).length).toBeLessThan(240);
  });

  it("returns null when no field contains the terms", () => {
    expect(buildStepMatch({ index: 0, action: "ls", observation: "README.md" }, parseSearchQuery("cargo")!)).toBeNull();
  });
});
