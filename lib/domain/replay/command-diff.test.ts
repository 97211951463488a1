import { describe, expect, it } from "vitest";
import { diffCommands, sharedCount } from "./command-diff.ts";

describe("diffCommands", () => {
  it("aligns the common commands and marks the rest", () => {
    const a = ["pip install requests", "python main.py", "bash run-tests.sh"];
    const b = ["pip  install   requests", "pip install -r requirements.txt", "python main.py", "bash run-tests.sh", "echo done"];
    const ops = diffCommands(a, b);
    expect(ops.map((o) => o.kind)).toEqual(["same", "added", "same", "same", "added"]);
    expect(ops[1]).toEqual({ kind: "added", b: 1, text: "pip install -r requirements.txt" });
    expect(sharedCount(ops)).toBe(3);
  });

  it("handles empty and disjoint sequences", () => {
    expect(diffCommands([], [])).toEqual([]);
    expect(diffCommands(["a"], []).map((o) => o.kind)).toEqual(["removed"]);
    expect(
      diffCommands(["a", "b"], ["c"])
        .map((o) => o.kind)
        .sort(),
    ).toEqual(["added", "removed", "removed"]);
  });

  it("every input command appears exactly once in the edit script", () => {
    const a = Array.from({ length: 60 }, (_, i) => `cmd ${i % 7}`);
    const b = Array.from({ length: 45 }, (_, i) => `cmd ${(i * 3) % 5}`);
    const ops = diffCommands(a, b);
    expect(ops.filter((o) => o.kind !== "added").map((o) => ("a" in o ? o.a : -1))).toEqual(a.map((_, i) => i));
    expect(ops.filter((o) => o.kind !== "removed").map((o) => ("b" in o ? o.b : -1))).toEqual(b.map((_, i) => i));
  });
});
