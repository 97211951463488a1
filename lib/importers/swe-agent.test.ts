import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { parsePythonLiteral, sweAgentImporter } from "./swe-agent.ts";
import { importerReader } from "./test-reader.ts";

const { readAll, readOne } = importerReader(sweAgentImporter);

const shared = (name: string) => fixture("sweagent-traj", name);
const own = (name: string) => path.join(import.meta.dirname, "__fixtures__", "swe-agent", name);

describeShared("SWE-agent importer on the shared .traj files", () => {
  it("reads the function-calling replay: prelude, 11 turns with tool calls, offsets from execution_time, the edit rejection", async () => {
    const t = await readOne(shared("marshmallow-1867__function_calling_replace.traj"));
    expect(t.task).toMatchObject({ benchmark: "swe-bench", id: "marshmallow-code__marshmallow-1867" });
    expect(t.task.instruction).toMatch(/^TimeDelta serialization precision/);
    expect(t.run).toMatchObject({ name: "swe-agent/gpt-4o", model: "gpt-4o", agent: "swe-agent" });
    expect(t.outcome).toBe("unknown");
    expect(t.steps).toHaveLength(13);
    expect(t.steps.slice(0, 2).map((s) => s.source)).toEqual(["system", "user"]);
    const agent = t.steps.slice(2);
    expect(agent.map((s) => s.action?.split(/[ \n]/)[0])).toEqual([
      "create",
      "insert",
      "python",
      "ls",
      "find_file",
      "open",
      "edit",
      "edit",
      "python",
      "rm",
      "submit",
    ]);
    expect(agent[2]).toMatchObject({ action: "python reproduce.py", observation: "344" });
    expect(agent[6]?.observation).toContain("Your proposed edit has introduced new syntax error(s)");
    expect(agent[8]?.observation).toBe("345");
    expect(agent[0]?.toolCalls).toEqual([{ id: "call_cyI71DYnRdoLHWwtZgIaW2wr", name: "create", arguments: { filename: "reproduce.py" } }]);
    // Cumulative execution times: 0.2387…s after the first command, 3.999 s after the last.
    expect(agent[0]?.offsetMs).toBe(239);
    expect(agent.at(-1)?.offsetMs).toBe(3999);
    expect(t.metadata).toMatchObject({ exitStatus: "submitted", apiCalls: 11, environment: "main" });
    expect(String(t.metadata?.submission)).toContain("diff --git a/src/marshmallow/fields.py");
    // model_stats are all zero in this demonstration: not tracked rather than free.
    expect(t.inputTokens).toBeUndefined();
  });

  it("reads token counts and three rejected edits before the fix in the pydicom run", async () => {
    const t = await readOne(shared("pydicom__pydicom-1458.traj"));
    expect(t.task).toMatchObject({ benchmark: "swe-bench", id: "pydicom__pydicom-1458" });
    expect(t.run.name).toBe("swe-agent");
    expect(t.steps).toHaveLength(14);
    expect(t.inputTokens).toBe(122612);
    expect(t.outputTokens).toBe(1369);
    expect(t.metadata?.instanceCost).toBe(1.26719);
    const agent = t.steps.slice(2);
    expect(agent[2]?.observation).toContain("Traceback (most recent call last)");
    expect(agent.flatMap((s, i) => (s.observation?.includes("syntax error(s)") ? [i] : []))).toEqual([5, 6, 7]);
    expect(agent.at(-1)?.action).toBe("submit");
    // The demonstration user turn (is_demo) is not part of this run's conversation.
    expect(t.steps[1]?.message).toMatch(/^We're currently solving the following issue/);
    expect(t.steps.every((s) => s.offsetMs === undefined)).toBe(true);
  });

  it("reads the history-only demonstration, parsing Python-repr tool calls", async () => {
    const t = await readOne(shared("function_calling_simple.traj"));
    expect(t.task).toMatchObject({ benchmark: "unknown", id: "function_calling_simple" });
    expect(t.steps.map((s) => s.source)).toEqual(["system", "user", "agent", "agent", "agent", "agent", "agent"]);
    const agent = t.steps.slice(2);
    expect(agent.map((s) => s.toolCalls?.[0]?.name)).toEqual(["find_file", "open", "edit", "bash", "submit"]);
    expect(agent[3]).toMatchObject({
      action: "python tests/missing_colon.py",
      toolCalls: [{ id: "call_5O339epJ3rKjEal3Kuvpj9bM", name: "bash", arguments: { command: "python tests/missing_colon.py" } }],
    });
    expect(agent[3]?.observation).toMatch(/^8\.2\n\(Open file:/);
    expect(agent[0]?.reasoning).toMatch(/missing colon/);
    expect(t.metadata?.exitStatus).toBeUndefined();
  });

  it.each([
    ["ctf-crypto-katy.traj", "ctf-crypto-katy", 20, "file release", "submit '125379498'"],
    ["ctf-web-i_got_id_demo.traj", "ctf-web-i_got_id_demo", 23, "curl http://web.chal.csaw.io:8000", undefined],
    ["humanevalfix-python-0.traj", "humanevalfix-python-0", 7, "ls -a", "submit"],
    ["marshmallow-1867__default_sys-env_window100.traj", "marshmallow-code__marshmallow-1867", 13, "create reproduce.py", "submit"],
  ])("reads %s", async (name, taskId, steps, firstAction, lastAction) => {
    const t = await readOne(shared(name));
    expect(t.task.id).toBe(taskId);
    expect(t.steps).toHaveLength(steps);
    expect(t.steps[2]?.action).toBe(firstAction);
    if (lastAction) expect(t.steps.at(-1)?.action).toBe(lastAction);
    expect(t.metadata?.exitStatus).toBe("submitted");
    expect(t.steps.slice(2).every((s) => s.source === "agent" && s.observation !== undefined && s.reasoning)).toBe(true);
  });

  it("keeps the CTF flag as the submission", async () => {
    const t = await readOne(shared("ctf-web-i_got_id_demo.traj"));
    expect(String(t.metadata?.submission)).toContain("FLAG{p3rl_6_iz_EVEN_BETTER!!1}");
    expect(t.steps[2]?.observation).toContain("% Total");
  });
});

describe("SWE-agent importer on hand-written files", () => {
  it("reports a non-submitted exit status as failure mode, parses a JSON-string replay_config and string execution times", async () => {
    const t = await readOne(own("exit-cost.traj"));
    expect(t.task).toEqual({ benchmark: "swe-bench", id: "acme__widgets-12", instruction: "Fix the bug" });
    expect(t.run.name).toBe("swe-agent/claude-test");
    expect(t.failureMode).toBe("exit_cost");
    expect(t.outcome).toBe("unknown");
    expect([t.inputTokens, t.outputTokens]).toEqual([5000, 300]);
    expect(t.steps.map((s) => [s.source, s.action, s.offsetMs])).toEqual([
      ["system", undefined, undefined],
      ["user", undefined, undefined],
      ["agent", "ls", 500],
      ["agent", "pytest", 1750],
    ]);
    expect(t.steps[1]?.message).toBe("Fix the bug in acme/widgets#12");
  });

  it("keeps a structured (dict) submission, which current SWE-agent's AgentInfo allows", async () => {
    const t = await readOne(own("dict-submission.traj"));
    expect(t.metadata).toMatchObject({
      exitStatus: "submitted",
      submission: { patch: "diff --git a/x b/x", answer: "42" },
      sweAgentVersion: "1.1.0",
    });
    expect(t.failureMode).toBeUndefined();
    expect(t.steps.at(-1)?.action).toBe("submit");
  });

  it("uses --run over the derived run name", async () => {
    const t = await readOne(own("exit-cost.traj"), { runName: "nightly" });
    expect(t.run.name).toBe("nightly");
  });

  it("names the field when the file is not a .traj object", async () => {
    const dir = path.join(import.meta.dirname, "__fixtures__", "swe-agent");
    const records = await readAll(path.join(dir, "..", "gemini-cli", "tool-calls.json"));
    expect(records).toEqual([
      { ok: false, issue: expect.objectContaining({ path: "trajectory", message: "expected a trajectory[] or history[] array" }) },
    ]);
  });
});

describe("parsePythonLiteral", () => {
  it("parses SWE-agent's repr() of tool calls", () => {
    expect(
      parsePythonLiteral(`[{'function': {'arguments': '{"a": "it\\'s"}', 'name': 'x'}, 'id': None, 'n': -1.5, 'ok': True, 't': ('a',)}]`),
    ).toEqual([{ function: { arguments: '{"a": "it\'s"}', name: "x" }, id: null, n: -1.5, ok: true, t: ["a"] }]);
  });

  it("rejects what is not a literal", () => {
    expect(() => parsePythonLiteral("[{'a': open('x')}]")).toThrow(SyntaxError);
    expect(() => parsePythonLiteral("['unterminated")).toThrow(SyntaxError);
  });
});
