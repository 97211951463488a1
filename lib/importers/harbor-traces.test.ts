import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { detectErrors } from "../domain/error-detector.ts";
import { harborTracesImporter, parseAssistant, resultOutcome } from "./harbor-traces.ts";
import { importerReader } from "./test-reader.ts";

const { readAll, readOne } = importerReader(harborTracesImporter);

describeShared("Harbor traces importer on the shared exports", () => {
  it("imports the invalid-json trial once, from its longest episode: parse error, recovery, double completion", async () => {
    const t = await readOne(fixture("harbor-traces", "terminus2__hello-world-invalid-json.traces.json"));
    expect(t.metadata).toMatchObject({ trialName: "NORMALIZED_TRIAL_NAME", episode: "episode-3", rowsForTrial: 4 });
    expect(t.task).toMatchObject({ benchmark: "harbor", id: "hello-world" });
    expect(t.run).toMatchObject({ name: "hello-world__NORMALIZED/terminus-2/openai/gpt-4o", agent: "terminus-2", model: "openai/gpt-4o" });
    expect([t.outcome, t.reward]).toEqual(["passed", 1]);
    expect(t.steps.map((s) => s.source)).toEqual(["user", "agent", "agent", "agent", "agent"]);
    const [, bad, fix, done, confirm] = t.steps;
    // The unparseable reply sent no keystrokes; the harness's complaint is its observation.
    expect(bad?.toolCalls).toBeUndefined();
    expect(bad?.observation).toMatch(/^Previous response had parsing errors:\nERROR: Missing required fields: analysis, plan/);
    expect(bad?.reasoning).toMatch(/^The task is straightforward/);
    expect(fix).toMatchObject({
      action: "printf 'Hello, world!\\n' > hello.txt",
      toolCalls: [{ name: "bash_command", arguments: { keystrokes: "printf 'Hello, world!\\n' > hello.txt\n", duration: 0.1 } }],
    });
    expect(fix?.observation).toContain("root@CONTAINER_ID:/app# printf 'Hello, world!\\n' > hello.txt");
    expect(done?.toolCalls).toEqual([{ name: "mark_task_complete", arguments: {} }]);
    expect(done?.observation).toMatch(/Are you sure you want to mark the task as complete\?/);
    expect(confirm?.observation).toBeUndefined();
    expect(detectErrors(t.steps).map((d) => [d.stepIndex, d.category])).toEqual([[1, "format-error"]]);
  });

  it("imports the summarization trial from the main trace and lists the sub-agent traces", async () => {
    const t = await readOne(fixture("harbor-traces", "terminus2__hello-world-context-summarization.traces.json"));
    expect(t.metadata).toMatchObject({
      episode: "episode-6",
      rowsForTrial: 10,
      traceSource: "main",
      subagentTraces: ["summarization-1-answers", "summarization-1-questions", "summarization-1-summary"],
    });
    expect(t.steps).toHaveLength(7);
    expect(t.steps.map((s) => s.action)).toEqual([
      undefined,
      undefined,
      undefined,
      "printf 'Hello, world!\\n' > hello.txt",
      "cat hello.txt",
      "mark_task_complete",
      "mark_task_complete",
    ]);
    expect(t.steps[1]?.message).toMatch(/^You are picking up work from a previous AI agent/);
    expect(t.steps[4]?.observation).toContain("Hello, world!");
  });

  it("reads Hermes-style <tool_call> blocks of the OpenHands export and its tool definitions", async () => {
    const t = await readOne(fixture("harbor-traces", "openhands__hello-world.traces.json"));
    expect(t.metadata).toMatchObject({ episode: "episode-1", rowsForTrial: 2, modelProvider: "openai" });
    expect(t.metadata?.toolDefinitions).toEqual(
      expect.arrayContaining([expect.objectContaining({ function: expect.objectContaining({ name: "execute_bash" }) })]),
    );
    expect(t.run).toMatchObject({ agent: "openhands", model: "gpt-4o" });
    expect(t.steps.map((s) => s.source)).toEqual(["user", "user", "user", "user", "agent", "agent"]);
    expect(t.steps[4]?.toolCalls).toEqual([
      {
        name: "str_replace_editor",
        arguments: { command: "create", path: "/app/hello.txt", file_text: "Hello, world!", security_risk: "LOW" },
      },
    ]);
    expect(t.steps[4]?.observation).toBe("File created successfully at: /app/hello.txt");
    expect(t.steps[5]?.toolCalls?.[0]?.name).toBe("finish");
  });
});

describe("Harbor traces importer on a hand-written JSONL", () => {
  const file = path.join(import.meta.dirname, "__fixtures__", "harbor-traces", "two-trials.jsonl");

  it("groups interleaved rows by trial, reads exception results and reports the broken row", async () => {
    const records = await readAll(file);
    expect(
      records.map((r) => (r.ok ? `${String(r.value.trajectory.metadata?.trialName)}@${r.line}` : `${r.issue.line}: ${r.issue.path}`)),
    ).toEqual(["4: conversations", "build-it__abc@3", "fix-it__def@2"]);
    const [, build, fix] = records.flatMap((r) => (r.ok ? [r.value.trajectory] : [undefined]));
    expect(build).toMatchObject({
      outcome: "failed",
      failureMode: "AgentTimeoutError",
      startedAt: "2026-02-01T12:00:00.000Z",
      task: { benchmark: "terminal-bench", id: "build-it" },
    });
    expect(build?.reward).toBeUndefined();
    expect(build?.steps.map((s) => s.action)).toEqual([undefined, "make", "ls\ncat Makefile"]);
    expect(build?.steps[1]?.observation).toContain("make: *** No rule to make target");
    expect(fix).toMatchObject({ outcome: "failed", reward: 0, task: { benchmark: "unknown", id: "fix-it" } });
  });
});

describe("resultOutcome and parseAssistant", () => {
  it.each([
    ["1.0", { outcome: "passed", reward: 1 }],
    ["0.0", { outcome: "failed", reward: 0 }],
    [0.5, { outcome: "unknown", reward: 0.5 }],
    ["ContextLengthExceededError", { outcome: "failed", failureMode: "ContextLengthExceededError" }],
    [null, { outcome: "unknown" }],
    ["None", { outcome: "unknown" }],
  ])("result %j", (result, expected) => {
    expect(resultOutcome(result)).toEqual(expected);
  });

  it("accepts only a clean Terminus reply as commands", () => {
    expect(parseAssistant('{"analysis":"a","plan":"p","commands":[{"keystrokes":"ls\\n"}]}').toolCalls).toEqual([
      { name: "bash_command", arguments: { keystrokes: "ls\n", duration: undefined } },
    ]);
    expect(parseAssistant('Sure!\n{"commands":[{"keystrokes":"ls\\n"}]}').toolCalls).toBeUndefined();
  });
});
