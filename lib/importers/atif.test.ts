import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import type { ImportIssue, ReadOptions } from "./types.ts";
import { atifImporter } from "./atif.ts";
import { renderToolCall } from "./atif-steps.ts";
import { fileSource } from "./source.ts";
import { attachedWarnings } from "./test-reader.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-atif-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, content: unknown): string {
  const file = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  return file;
}

async function read(file: string, options: ReadOptions = {}): Promise<{ trajectories: TrajectoryInput[]; issues: ImportIssue[] }> {
  const trajectories: TrajectoryInput[] = [];
  const issues: ImportIssue[] = [];
  for await (const r of atifImporter.read(await fileSource(file, path.relative(tmp, file) || path.basename(file)), options)) {
    if (r.ok) {
      trajectories.push(r.value.trajectory);
      issues.push(...attachedWarnings(r));
    } else issues.push(r.issue);
  }
  return { trajectories, issues };
}

const doc = (over: Record<string, unknown> = {}) => ({
  schema_version: "ATIF-v1.6",
  session_id: "s-1",
  agent: { name: "terminus-2", version: "2.0.0", model_name: "gpt-5" },
  steps: [
    { step_id: 1, source: "user", message: "Task: say hi" },
    {
      step_id: 2,
      source: "agent",
      message: "ok",
      tool_calls: [{ tool_call_id: "c1", function_name: "bash_command", arguments: { keystrokes: "echo hi\n", duration: 0.1 } }],
      observation: { results: [{ content: "hi" }] },
    },
  ],
  ...over,
});

describeShared("ATIF importer on the shared Harbor goldens", () => {
  const atif = (name: string) => fixture("atif", name);
  const one = async (name: string) => {
    const { trajectories, issues } = await read(atif(name));
    expect(issues).toEqual([]);
    expect(trajectories).toHaveLength(1);
    return trajectories[0]!;
  };

  it("openhands__hello-world (v1.5): tool calls rendered, observation joined, tokens from final_metrics", async () => {
    const t = await one("openhands__hello-world.trajectory.json");
    expect(t.id).toBe("atif:NORMALIZED_SESSION_ID");
    expect(t.task).toEqual({ benchmark: "unknown", id: "openhands__hello-world" });
    expect(t.run).toEqual({ name: "openhands", agent: "openhands" });
    expect(t.outcome).toBe("unknown");
    expect(t.steps.map((s) => s.source)).toEqual(["system", "user", "system", "system", "agent", "agent"]);
    const edit = t.steps[4]!;
    expect(edit.action).toBe(
      'str_replace_editor({"command":"create","path":"/app/hello.txt","file_text":"Hello, world!","security_risk":"LOW"})',
    );
    expect(edit.toolCalls).toEqual([
      {
        id: "call_fake_1",
        name: "str_replace_editor",
        arguments: { command: "create", path: "/app/hello.txt", file_text: "Hello, world!", security_risk: "LOW" },
      },
    ]);
    expect(edit.observation).toBe("File created successfully at: /app/hello.txt");
    expect([edit.promptTokens, edit.completionTokens]).toEqual([100, 50]);
    expect(t.steps[5]!.action).toBe(`finish({"message":"Task complete. Created /app/hello.txt with 'Hello, world!'"})`);
    expect(t.steps[5]!.observation).toBeUndefined();
    expect([t.inputTokens, t.outputTokens]).toEqual([220, 80]);
    expect(t.metadata).toMatchObject({ atif: { schemaVersion: "ATIF-v1.5", agentVersion: "1.1.0", costUsd: 0.00135 } });
  });

  it("terminus2 invalid-json (v1.7): the unparsed reply has no action, the retry has the keystrokes", async () => {
    const t = await one("terminus2__hello-world-invalid-json.trajectory.json");
    expect(t.run).toEqual({ name: "terminus-2/openai/gpt-4o", agent: "terminus-2", model: "openai/gpt-4o" });
    expect(t.steps.map((s) => s.source)).toEqual(["user", "agent", "agent", "agent", "agent"]);
    const failed = t.steps[1]!;
    expect(failed.action).toBeUndefined();
    expect(failed.toolCalls).toBeUndefined();
    expect(failed.observation).toMatch(/^Previous response had parsing errors:\nERROR: Missing required fields: analysis, plan/);
    expect(failed.reasoning).toMatch(/^The task is straightforward/);
    expect(t.steps[2]!.action).toBe("printf 'Hello, world!\\n' > hello.txt");
    expect(t.steps[2]!.observation).toContain("root@CONTAINER_ID:/app# printf 'Hello, world!\\n' > hello.txt");
    expect(t.steps.slice(3).map((s) => s.action)).toEqual(["mark_task_complete()", "mark_task_complete()"]);
    expect(t.steps[3]!.observation).toContain("Are you sure you want to mark the task as complete?");
    expect([t.inputTokens, t.outputTokens]).toEqual([2417, 200]);
  });

  it("terminus2 context-summarization: 10 steps, 7 tool calls, sub-agent refs noted on the parent", async () => {
    const t = await one("terminus2__hello-world-context-summarization.trajectory.json");
    expect(t.steps).toHaveLength(10);
    const bySource = (src: string) => t.steps.filter((s) => s.source === src).length;
    expect([bySource("system"), bySource("user"), bySource("agent")]).toEqual([1, 2, 7]);
    expect(t.steps.flatMap((s) => s.toolCalls ?? [])).toHaveLength(7);
    expect(t.steps.map((s) => s.action).filter(Boolean)).toEqual([
      "mkdir test_dir",
      "echo 'test1' > test_dir/file1.txt",
      "echo 'test2' > test_dir/file2.txt",
      "printf 'Hello, world!\\n' > hello.txt",
      "cat hello.txt",
      "mark_task_complete()",
      "mark_task_complete()",
    ]);
    expect(t.steps[4]).toMatchObject({ source: "system", message: "Performed context summarization and handoff to continue task." });
    expect(t.steps[4]!.observation).toBeUndefined();
    expect(t.steps[7]!.observation).toBe("New Terminal Output:\n\nroot@CONTAINER_ID:/app# cat hello.txt\nHello, world!\n\n");
    expect([t.inputTokens, t.outputTokens]).toEqual([7802, 1030]);
    expect(t.metadata?.subagents).toEqual([
      "trajectory.summarization-1-summary.json",
      "trajectory.summarization-1-questions.json",
      "trajectory.summarization-1-answers.json",
    ]);
  });

  it("terminus2 linear-history: the head and its cont-1 segment are one trajectory of 5 + 8 steps", async () => {
    const t = await one("terminus2__hello-world-context-summarization-linear-history.trajectory.json");
    expect(t.steps).toHaveLength(13);
    expect(t.metadata).toMatchObject({ atif: { segments: 2 } });
    expect(t.steps.map((s) => (s.isCopiedContext ? "c" : "-")).join("")).toBe("-----cccc----");
    // Raw-content mode: the commands are read from the model's JSON reply.
    expect(t.steps[1]!.action).toBe("mkdir test_dir");
    expect(t.steps[9]!.action).toBe("printf 'Hello, world!\\n' > hello.txt");
    expect(t.steps[11]!.action).toBeUndefined();
    expect(t.steps[12]!.observation).toBe("New Terminal Output:\n\n");
    // Harbor writes running totals into each segment: the last one covers the whole run.
    expect([t.inputTokens, t.outputTokens]).toEqual([7802, 1030]);
  });

  it("the cont-1 file yields nothing on its own while its head is next to it", async () => {
    const { trajectories, issues } = await read(atif("terminus2__hello-world-context-summarization-linear-history.trajectory.cont-1.json"));
    expect(trajectories).toEqual([]);
    expect(issues).toEqual([]);
  });

  it("the summarization sub-agent is its own trajectory, linked to its parent and not a fork", async () => {
    const t = await one("terminus2__hello-world-context-summarization.trajectory.summarization-1-summary.json");
    expect(t.id).toBe("atif:test-session-context-summarization-summarization-1-summary");
    expect(t.metadata).toMatchObject({ subagent: true, subagentOf: "atif:NORMALIZED_SESSION_ID" });
    expect(t.fork).toBeUndefined();
    expect(t.task.id).toBe("terminus2__hello-world-context-summarization");
    expect(t.run.agent).toBe("terminus-2-summarization-summary");
    expect(t.steps).toHaveLength(5);
    expect(t.steps.map((s) => s.isCopiedContext === true)).toEqual([true, true, true, false, false]);
    expect(t.steps[4]!.message).toMatch(/^I have been working on creating hello.txt/);
    expect([t.inputTokens, t.outputTokens]).toEqual([500, 200]);
  });

  it("detects every shared ATIF file", async () => {
    for (const name of fs.readdirSync(path.dirname(atif("x")))) expect(atifImporter.detect(await fileSource(atif(name)))).toBe(0.95);
  });
});

describe("ATIF mapping details", () => {
  it("timestamps give offsets and the trajectory's start/end; content parts and string arguments are read", async () => {
    const file = write("details/trajectory.json", {
      schema_version: "ATIF-v1.7",
      trajectory_id: "traj-7",
      session_id: "shared-session",
      agent: { name: "claude-code", version: "1", unknown_field: true },
      steps: [
        {
          step_id: 1,
          timestamp: "2026-02-01T10:00:00.000000+00:00",
          source: "user",
          message: [
            { type: "text", text: "look at this" },
            { type: "image", source: { path: "img.png" } },
          ],
        },
        {
          step_id: 2,
          timestamp: "2026-02-01T10:00:02.500000+00:00",
          source: "agent",
          message: "",
          tool_calls: [{ tool_call_id: "t1", function_name: "Bash", arguments: '{"command": "ls -la\\n"}' }],
          observation: { results: [{ source_call_id: "t1", content: [{ type: "text", text: "total 0" }] }, { content: "second result" }] },
          metrics: { prompt_tokens: 10.4, completion_tokens: -3 },
        },
      ],
      extra: { anything: 1 },
    });
    const { trajectories, issues } = await read(file, { runName: "my-run" });
    expect(issues).toEqual([]);
    const t = trajectories[0]!;
    expect(t.id).toBe("atif:traj-7");
    expect(t.task.id).toBe("details");
    expect(t.run).toEqual({ name: "my-run", agent: "claude-code" });
    expect([t.startedAt, t.endedAt]).toEqual(["2026-02-01T10:00:00.000Z", "2026-02-01T10:00:02.500Z"]);
    expect(t.steps[0]).toMatchObject({ offsetMs: 0, message: "look at this\n[image]" });
    expect(t.steps[1]).toMatchObject({ offsetMs: 2500, action: "ls -la", observation: "total 0\nsecond result", promptTokens: 10 });
    expect(t.steps[1]!.message).toBeUndefined();
    expect(t.steps[1]!.completionTokens).toBeUndefined();
    expect(t.steps[1]!.toolCalls).toEqual([{ id: "t1", name: "Bash", arguments: { command: "ls -la\n" } }]);
    expect([t.inputTokens, t.outputTokens]).toEqual([10, undefined]);
  });

  it("renders tool calls readably", () => {
    expect(renderToolCall({ name: "bash_command", arguments: { keystrokes: "C-c", duration: 1 } })).toBe("C-c");
    expect(renderToolCall({ name: "execute_bash", arguments: { command: "make test", security_risk: "LOW" } })).toBe("make test");
    expect(renderToolCall({ name: "mark_task_complete", arguments: {} })).toBe("mark_task_complete()");
    expect(renderToolCall({ name: "think" })).toBe("think()");
    expect(renderToolCall({ name: "str_replace_editor", arguments: { command: "view", path: "/a" } })).toBe(
      'str_replace_editor({"command":"view","path":"/a"})',
    );
  });

  it("a recovery attempt's extra.forked_from becomes a fork reference to its parent", async () => {
    const file = write(
      "fork/attempt.trajectory.json",
      doc({ session_id: "s-attempt", extra: { forked_from: { session_id: "s-parent", step_id: 4 }, attempt: 2 } }),
    );
    const t = (await read(file)).trajectories[0]!;
    expect(t.fork).toEqual({ parentId: "atif:s-parent", stepIndex: 3, attemptIndex: 2 });
  });

  it("embedded v1.7 sub-agents become trajectories of their own; a bad one is reported alone", async () => {
    const child = {
      schema_version: "ATIF-v1.7",
      trajectory_id: "child-1",
      agent: { name: "researcher", version: "1" },
      steps: [{ step_id: 1, source: "user", message: "research" }],
    };
    const file = write(
      "embedded/trajectory.json",
      doc({
        schema_version: "ATIF-v1.7",
        subagent_trajectories: [child, { ...child, trajectory_id: "child-2", steps: [{ step_id: 1, source: "robot" }] }],
      }),
    );
    const { trajectories, issues } = await read(file);
    expect(trajectories.map((t) => [t.id, t.metadata?.subagentOf])).toEqual([
      ["atif:s-1", undefined],
      ["atif:child-1", "atif:s-1"],
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: "embedded/trajectory.json", path: "subagent_trajectories[1].steps[0].source" });
  });

  it("a sub-agent file sharing its parent's session id gets an id of its own", async () => {
    write("shared/trajectory.json", doc({ session_id: "same" }));
    const sub = write(
      "shared/trajectory.summarization-2-answers.json",
      doc({ session_id: "same", agent: { name: "terminus-2-summarization-answers", version: "2" } }),
    );
    const t = (await read(sub)).trajectories[0]!;
    expect(t.id).toBe("atif:same/summarization-2-answers");
    expect(t.metadata).toMatchObject({ subagentOf: "atif:same" });
  });
});

describe("ATIF continuations", () => {
  it("follows a chain of segments and reads each continuation only through its head", async () => {
    write("chain/trajectory.json", doc({ continued_trajectory_ref: "trajectory.cont-1.json" }));
    write("chain/trajectory.cont-1.json", doc({ session_id: "s-1-cont-1", continued_trajectory_ref: "trajectory.cont-2.json" }));
    write(
      "chain/trajectory.cont-2.json",
      doc({ session_id: "s-1-cont-2", final_metrics: { total_prompt_tokens: 99, total_completion_tokens: 9 } }),
    );
    const head = await read(path.join(tmp, "chain/trajectory.json"));
    expect(head.issues).toEqual([]);
    expect(head.trajectories).toHaveLength(1);
    expect(head.trajectories[0]!.steps).toHaveLength(6);
    expect([head.trajectories[0]!.inputTokens, head.trajectories[0]!.outputTokens]).toEqual([99, 9]);
    for (const seg of ["trajectory.cont-1.json", "trajectory.cont-2.json"])
      expect(await read(path.join(tmp, "chain", seg))).toEqual({ trajectories: [], issues: [] });
  });

  it("a missing segment is reported and the segments read so far are kept", async () => {
    const file = write("missing/trajectory.json", doc({ continued_trajectory_ref: "trajectory.cont-1.json" }));
    const { trajectories, issues } = await read(file);
    expect(issues).toEqual([
      {
        file: "missing/trajectory.json",
        path: "continued_trajectory_ref",
        message: "continuation trajectory.cont-1.json not found next to this file; imported 1 segment(s) only",
        severity: "warning",
      },
    ]);
    expect(trajectories[0]!.steps).toHaveLength(2);
  });

  it("refuses references that leave the folder, and invalid segments name their own file", async () => {
    write("outside.json", doc());
    const escape = await read(write("escape/trajectory.json", doc({ continued_trajectory_ref: "../outside.json" })));
    expect(escape.issues[0]!.message).toMatch(/not found next to this file/);
    write("badseg/trajectory.cont-1.json", '{"schema_version": "ATIF-v1.6",\n "steps": [1 2]}');
    const bad = await read(write("badseg/trajectory.json", doc({ continued_trajectory_ref: "trajectory.cont-1.json" })));
    expect(bad.issues).toEqual([
      {
        file: "badseg/trajectory.cont-1.json",
        line: 2,
        message: "invalid JSON: Expected ',' or ']' after array element",
        severity: "warning",
      },
    ]);
    expect(bad.trajectories[0]!.steps).toHaveLength(2);
  });

  it("a continuation without a head that references it is imported on its own", async () => {
    const orphan = write("orphan/trajectory.cont-1.json", doc({ session_id: "orphan" }));
    expect((await read(orphan)).trajectories.map((t) => t.id)).toEqual(["atif:orphan"]);
    write("unrelated/trajectory.json", doc({ session_id: "head-without-ref" }));
    const unrelated = write("unrelated/trajectory.cont-1.json", doc({ session_id: "not-referenced" }));
    expect((await read(unrelated)).trajectories.map((t) => t.id)).toEqual(["atif:not-referenced"]);
  });
});

describe("ATIF robustness: bad input gives a clear issue, never a throw or a hang", () => {
  const cases: [string, string | Buffer, Partial<ImportIssue>][] = [
    ["empty.json", "", { message: "file is empty" }],
    ["binary.json", Buffer.from([0x7b, 0x00, 0xff, 0x10, 0x00, 0x22]), { message: "file is binary, not JSON text" }],
    // Node's parser gives no position for these two messages, so the issue has no line.
    [
      "truncated.json",
      '{\n  "schema_version": "ATIF-v1.6",\n  "agent": {"name": "x"},\n  "steps": [\n',
      { message: "invalid JSON: Unexpected end of JSON input" },
    ],
    [
      "trailing-comma.json",
      '{\n  "schema_version": "ATIF-v1.6",\n  "agent": {"name": "x"},\n}',
      { line: 4, message: "invalid JSON: Expected double-quoted property name" },
    ],
    [
      "huge.json",
      `{"schema_version": "ATIF-v1.6", "agent": {"name": "x"}, "notes": "${"n".repeat(10 * 1024 * 1024)}"}`,
      { path: "steps", message: expect.stringMatching(/expected array/) },
    ],
    ["huge-garbage.json", "z".repeat(10 * 1024 * 1024), { message: expect.stringMatching(/^invalid JSON: Unexpected token 'z'/) }],
    ["array.json", "[1, 2]", { message: expect.stringMatching(/expected object/) }],
    ["v2.json", JSON.stringify(doc({ schema_version: "ATIF-v2.0" })), { path: "schema_version", message: 'expected "ATIF-v1.x"' }],
    [
      "bad-step.json",
      JSON.stringify(
        doc({
          steps: [
            { step_id: 1, source: "user", message: "hi" },
            { step_id: 2, source: "agent", observation: "plain text" },
          ],
        }),
      ),
      { path: "steps[1].observation", message: expect.stringMatching(/expected object/) },
    ],
  ];
  for (const [name, content, expected] of cases) {
    it(`${name} → one issue naming the file`, async () => {
      const { trajectories, issues } = await read(write(`robust/${name}`, content));
      expect(trajectories).toEqual([]);
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ file: `robust/${name}`, ...expected });
    });
  }

  it("detects ATIF by its schema_version only", async () => {
    expect(atifImporter.detect(await fileSource(write("detect/a.json", doc())))).toBe(0.95);
    expect(atifImporter.detect(await fileSource(write("detect/trajectory.json", { messages: [] })))).toBe(0);
    expect(atifImporter.detect({ kind: "dir", path: tmp, displayPath: "x", entries: [] })).toBe(0);
  });
});
