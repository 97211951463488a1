import { describe, expect, it } from "vitest";
import { detectErrors, detectStepError } from "./error-detector";

describe("error detector", () => {
  it.each([
    ["bash: rg: command not found", undefined, "command-error", "command-not-found"],
    ['Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad', 1, "runtime-exception", "traceback"],
    ["ModuleNotFoundError: No module named 'numpy'", 1, "missing-dependency", "missing-module"],
    ["cp: cannot create regular file '/usr/bin/x': Permission denied", 1, "file-permission", "permission-or-path"],
    ["==== 1 failed, 5 passed in 1.2s ====", 1, "test-failure", "test-failure"],
    ["\u001b[31mFAILED\u001b[0m tests/test_a.py::test_x - AssertionError", 1, "test-failure", "test-failure"],
    ["Error (file_not_found): /app/x.txt", undefined, "file-permission", "tool-error"],
  ])("classifies %j", (observation, exitCode, category, signal) => {
    const d = detectStepError({ observation, exitCode }, 3);
    expect(d).toMatchObject({ stepIndex: 3, category, signal });
  });

  it("falls back to the exit code when the output has no known signal", () => {
    expect(detectStepError({ observation: "something odd", exitCode: 2 }, 0)).toMatchObject({
      category: "command-error",
      signal: "exit-code",
    });
  });

  it("reports no evidence rather than guessing", () => {
    expect(detectErrors([{ observation: "all good", exitCode: 0 }, { observation: "" }])).toEqual([]);
  });

  it("ignores colour codes when matching and quotes a clean excerpt", () => {
    const d = detectStepError({ observation: "\u001b[1;31mModuleNotFoundError\u001b[0m: No module named 'x'" }, 0);
    expect(d?.excerpt).toBe("ModuleNotFoundError: No module named 'x'");
  });
});
