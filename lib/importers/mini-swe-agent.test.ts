import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { detectErrors } from "../domain/error-detector.ts";
import { bashAction, miniSweAgentImporter, parseMiniObservation } from "./mini-swe-agent.ts";
import { importerReader } from "./test-reader.ts";

const { readOne } = importerReader(miniSweAgentImporter);

describeShared("mini-swe-agent importer on the shared files", () => {
  it("reads the object form: info, bash-block actions, <returncode> observations, per-turn tokens", async () => {
    const t = await readOne(fixture("mini-swe-agent", "atif-rfc__mini-swe-agent-trajectory.json"));
    expect(t.task).toEqual({
      benchmark: "unknown",
      id: "atif-rfc__mini-swe-agent-trajectory",
      instruction: 'Create a file called hello.txt with "Hello, world!" as the content.',
    });
    expect(t.run).toMatchObject({
      name: "mini-swe-agent/anthropic/claude-3-5-sonnet-20241022",
      model: "anthropic/claude-3-5-sonnet-20241022",
    });
    expect(t.steps.map((s) => s.source)).toEqual(["system", "user", "agent", "agent", "agent"]);
    expect(t.steps.slice(2).map((s) => [s.action, s.observation, s.exitCode])).toEqual([
      ['echo "Hello, world!" > hello.txt', "", 0],
      ["cat hello.txt", "Hello, world!", 0],
      // The final empty user message after COMPLETE_TASK is no observation.
      ["echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", undefined, undefined],
    ]);
    expect(t.steps.slice(2).map((s) => [s.promptTokens, s.completionTokens])).toEqual([
      [752, 69],
      [841, 53],
      [919, 77],
    ]);
    expect([t.inputTokens, t.outputTokens]).toEqual([2512, 199]);
    expect(t.outcome).toBe("unknown");
    expect(t.failureMode).toBeUndefined();
    expect(t.metadata).toMatchObject({ exitStatus: "Submitted", apiCalls: 3, miniVersion: "1.13.4", trajectoryFormat: "mini-swe-agent-1" });
  });

  it("reads the bare-array form: a failing first command (returncode 1) and the recovery", async () => {
    const t = await readOne(fixture("mini-swe-agent", "github_issue.traj.json"));
    expect(t.task.id).toBe("github_issue");
    expect(t.task.instruction).toMatch(/^GitHub Issue: SyntaxError: invalid syntax/);
    expect(t.run.name).toBe("mini-swe-agent");
    expect(t.steps).toHaveLength(12);
    const agent = t.steps.slice(2);
    expect(agent).toHaveLength(10);
    expect(agent[0]).toMatchObject({
      action: "cat /Users/fuchur/Documents/24/git_sync/swe-agent-test-repo/tests/./missing_colon.py",
      exitCode: 1,
    });
    expect(agent[0]?.observation).toContain("No such file or directory");
    expect(agent[1]).toMatchObject({ action: "ls -la", exitCode: 0 });
    expect(agent.map((s) => s.exitCode)).toEqual([1, 0, 0, 0, 0, 0, 0, 1, 0, undefined]);
    expect(agent[7]?.observation).toContain("ZeroDivisionError: division by zero");
    expect(agent[6]).toMatchObject({ action: "python3 tests/missing_colon.py", observation: "8.2" });
    // The submission diff comes back without a <returncode> wrapper.
    expect(agent[9]?.observation).toMatch(/^diff --git a\/tests\/missing_colon.py/);
    expect(t.inputTokens).toBeUndefined();
    // The error detector finds both failures on the steps that carry them (step index = 2 + agent index).
    expect(detectErrors(t.steps).map((d) => d.stepIndex)).toEqual(expect.arrayContaining([2, 9]));
  });
});

describe("mini-swe-agent importer on hand-written files", () => {
  it("reads tool-call mode, a non-Submitted exit status and the elided-output observation", async () => {
    const t = await readOne(path.join(import.meta.dirname, "__fixtures__", "mini-swe-agent", "tool-calls.traj.json"));
    expect(t.failureMode).toBe("LimitsExceeded");
    expect(t.task.instruction).toBe("Make the tests pass");
    expect(t.run.model).toBe("test/model");
    const [first, second] = t.steps.slice(2);
    expect(first).toMatchObject({
      action: "pytest -q",
      observation: "1 failed, 2 passed",
      exitCode: 1,
      toolCalls: [{ id: "t1", name: "bash", arguments: { command: "pytest -q" } }],
    });
    expect(second).toMatchObject({ action: "cat big.log", exitCode: 0 });
    expect(second?.observation).toContain("<output_head>\nstart\n</output_head>");
    expect([t.inputTokens, t.outputTokens]).toEqual([30, 7]);
  });

  it("treats v2's closing role:exit message as the run's end, not as an observation", async () => {
    const t = await readOne(path.join(import.meta.dirname, "__fixtures__", "mini-swe-agent", "v2-exit.traj.json"));
    expect(t.failureMode).toBeUndefined();
    expect(t.metadata).toMatchObject({
      exitStatus: "Submitted",
      submission: "diff --git a/f b/f\n",
      trajectoryFormat: "mini-swe-agent-1.1",
    });
    const agent = t.steps.filter((s) => s.source === "agent");
    expect(agent.map((s) => [s.action, s.observation ?? null])).toEqual([
      ["ls", "f"],
      ["echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff", null],
    ]);
    expect(t.steps.some((s) => s.message?.includes("diff --git") || s.observation?.includes("diff --git"))).toBe(false);
  });
});

describe("bashAction", () => {
  it("takes the single command block, and none when the reply has zero or several (a format error)", () => {
    expect(bashAction("THOUGHT: look\n\n```bash\nls -la\n```")).toBe("ls -la");
    expect(bashAction("Two:\n```bash\nls\n```\nand\n```bash\npwd\n```")).toBeUndefined();
    expect(bashAction("No command at all.")).toBeUndefined();
  });
});

describe("parseMiniObservation", () => {
  it("splits exit code and output, and leaves other text whole", () => {
    expect(parseMiniObservation("<returncode>127</returncode>\n<output>\nbash: rg: command not found\n</output>")).toEqual({
      observation: "bash: rg: command not found",
      exitCode: 127,
    });
    expect(parseMiniObservation("Please always provide EXACTLY ONE action")).toEqual({
      observation: "Please always provide EXACTLY ONE action",
    });
  });
});
