import { describe, expect, it } from "vitest";
import { generateTrajectories } from "./generate.ts";
import { stepSignature } from "../domain/failure-modes/index.ts";

// The failures whose output varies (line numbers, durations, values): each must be one mode however it varies, and
// no two of them may share a mode.
const VARIED = [
  "python3 main.py --check",
  "python3 -m http.server 8000",
  "make",
  "cargo build",
  "node src/index.js",
  "python3 main.py data/sample.csv",
];

describe("generator failure outputs", () => {
  it("vary their numbers and values while each failure stays one mode, distinct from the others", () => {
    const outputs = new Map<string, Set<string>>();
    const modes = new Map<string, Set<string>>();
    for (const t of generateTrajectories({ count: 3000, seed: 11 })) {
      t.steps.forEach((s, i) => {
        if (s.isCopiedContext || !s.exitCode || !s.action || !VARIED.includes(s.action)) return;
        const sig = stepSignature(s, i);
        expect(sig, s.action).not.toBeNull();
        (outputs.get(s.action) ?? outputs.set(s.action, new Set()).get(s.action)!).add(s.observation ?? "");
        (modes.get(s.action) ?? modes.set(s.action, new Set()).get(s.action)!).add(sig!.templateHash);
      });
    }
    expect([...outputs.keys()].sort()).toEqual([...VARIED].sort());
    for (const cmd of VARIED) {
      expect(outputs.get(cmd)!.size, cmd).toBeGreaterThan(5);
      expect(modes.get(cmd)!.size, cmd).toBe(1);
    }
    expect(new Set([...modes.values()].flatMap((m) => [...m])).size).toBe(VARIED.length);
  });
});
