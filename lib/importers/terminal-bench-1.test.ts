import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import type { ImportIssue, ImportSource, ReadOptions } from "./types.ts";
import { dirSource } from "./source.ts";
import { parseKeysLine, renderKeys, terminalBench1Importer } from "./terminal-bench-1.ts";
import { walkInputs } from "./walk.ts";
import { attachedWarnings } from "./test-reader.ts";

const RUN_ID = "2025-06-20__14-03-11";
const RUN = path.join(import.meta.dirname, "__fixtures__/tb1", RUN_ID);
const trialDir = (task: string) => path.join(RUN, task, `${task}.1-of-1.${RUN_ID}`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-tb1-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function read(source: ImportSource, options: ReadOptions = {}): Promise<{ trajectories: TrajectoryInput[]; issues: ImportIssue[] }> {
  const trajectories: TrajectoryInput[] = [];
  const issues: ImportIssue[] = [];
  for await (const r of terminalBench1Importer.read(source, options)) {
    if (r.ok) {
      trajectories.push(r.value.trajectory);
      issues.push(...attachedWarnings(r));
    } else issues.push(r.issue);
  }
  return { trajectories, issues };
}

describe("Terminal-Bench 1 run folder", () => {
  it("is detected as a run and claims everything in it", async () => {
    const run = dirSource(RUN, RUN_ID);
    expect(terminalBench1Importer.detect(run)).toBe(0.95);
    expect(terminalBench1Importer.claims!(run).map((p) => path.basename(p))).toEqual([
      "csv-report",
      "fix-git",
      "hello-world",
      "results.json",
      "run.log",
      "run_metadata.json",
      "tb.lock",
    ]);
    const units = [];
    for await (const u of walkInputs([RUN], { format: terminalBench1Importer })) units.push(u);
    expect(units.map((u) => (u.kind === "source" ? u.source.displayPath : `unrecognised:${u.displayPath}`))).toEqual([RUN_ID]);
  });

  it("reads three trials with outcomes from is_resolved, the run from run_metadata, one commands.txt issue", async () => {
    const { trajectories, issues } = await read(dirSource(RUN, RUN_ID));
    expect(issues).toEqual([
      {
        file: `${RUN_ID}/fix-git/fix-git.1-of-1.${RUN_ID}/commands.txt`,
        line: 8,
        message: "expected a Python list of strings, e.g. ['ls', 'Enter']",
        severity: "warning",
      },
    ]);
    expect(trajectories.map((t) => [t.id, t.task.id, t.outcome, t.reward ?? null, t.failureMode ?? null])).toEqual([
      ["tb1:a0c1e2f3-0003-4000-8000-000000000003", "csv-report", "failed", null, "parse_error"],
      ["tb1:a0c1e2f3-0002-4000-8000-000000000002", "fix-git", "failed", 0, "agent_timeout"],
      ["tb1:a0c1e2f3-0001-4000-8000-000000000001", "hello-world", "passed", 1, null],
    ]);
    for (const t of trajectories) {
      expect(t.run).toEqual({
        name: "terminus/anthropic/claude-sonnet-4-20250514",
        agent: "terminus",
        model: "anthropic/claude-sonnet-4-20250514",
      });
      expect(t.task.benchmark).toBe("terminal-bench-core");
    }
  });

  it("resolved trial: steps from sessions/agent.cast input events, verifier output from parser_results", async () => {
    const t = (await read(dirSource(RUN, RUN_ID))).trajectories.find((x) => x.task.id === "hello-world")!;
    expect(t.task.instruction).toBe('Create a file called hello.txt in the current directory containing "Hello, world!".');
    expect(t.verifierOutput).toBe("test_hello_file_exists: passed\ntest_hello_file_content: passed");
    expect([t.startedAt, t.endedAt]).toEqual(["2025-06-20T14:03:12.000Z", "2025-06-20T14:03:40.500Z"]);
    expect([t.inputTokens, t.outputTokens]).toEqual([4120, 310]);
    expect(t.steps.map((s) => [s.action, s.observation])).toEqual([
      ["cat > hello.txt << EOF\nHello, world!\nEOF", "> Hello, world!\n> EOF"],
      ["cat hello.txt", "Hello, world!"],
      ["^D", "exit"],
    ]);
    expect(t.steps[1]!.timestamp).toBe("2025-06-20T14:03:21.610Z");
    expect(t.recording).toMatchObject({ format: "asciicast-v2", width: 160, height: 40 });
    expect(t.recording!.events).toHaveLength(13);
    expect(t.metadata).toMatchObject({ tb1: { trialName: `hello-world.1-of-1.${RUN_ID}`, runId: RUN_ID, failureMode: "unset" } });
    expect(t.metadata).toMatchObject({ tb1: { postAgentPane: expect.stringContaining("root@0c5e7a:/app# cat hello.txt\nHello, world!") } });
  });

  it("timed-out trial without a cast: one step per commands.txt line, the harness's asciinema line left out", async () => {
    const t = (await read(dirSource(RUN, RUN_ID))).trajectories.find((x) => x.task.id === "fix-git")!;
    expect(t.steps.map((s) => s.action)).toEqual([
      "git status",
      "git merge feature",
      "vim README.md",
      "i Escape :wq",
      "git commit -am 'resolve conflict'",
      "C-c",
      "git log --oneline | head -n 3",
    ]);
    expect(t.steps.every((s) => s.source === "agent" && s.observation === undefined)).toBe(true);
    expect(t.recording).toBeUndefined();
    expect(t.verifierOutput).toBe("test_branch_merged: failed\ntest_no_conflict_markers: passed");
    expect([t.inputTokens, t.outputTokens]).toEqual([15230, 2210]);
  });

  it("parse-error trial: tests.log as verifier output, echoed command from a cut-off cast, 0/0 tokens left unknown", async () => {
    const t = (await read(dirSource(RUN, RUN_ID))).trajectories.find((x) => x.task.id === "csv-report")!;
    expect(t.verifierOutput).toBe("ERROR: test harness could not parse the test output\n");
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]!.action).toBe("python3 report.py");
    expect(t.steps[0]!.observation).toContain("ModuleNotFoundError: No module named 'pandas'");
    expect(t.metadata).toMatchObject({ asciicast: { truncated: true } });
    expect(t.inputTokens).toBeUndefined();
    expect(t.outputTokens).toBeUndefined();
  });
});

describe("Terminal-Bench 1 trial folder on its own", () => {
  it("is detected as a trial and still finds the run metadata two levels up", async () => {
    const dir = trialDir("hello-world");
    const source = dirSource(dir, "hello-world.1-of-1");
    expect(terminalBench1Importer.detect(source)).toBe(0.9);
    expect(terminalBench1Importer.claims!(source).map((p) => path.basename(p))).toEqual([
      "commands.txt",
      "panes",
      "results.json",
      "sessions",
    ]);
    const { trajectories, issues } = await read(source, { runName: "rerun" });
    expect(issues).toEqual([]);
    expect(trajectories.map((t) => [t.run.name, t.run.agent, t.outcome, t.steps.length])).toEqual([["rerun", "terminus", "passed", 3]]);
  });

  it("does not claim Harbor folders or plain folders", () => {
    expect(terminalBench1Importer.detect(dirSource(path.join(import.meta.dirname, "__fixtures__/harbor/2026-01-10__12-00-00")))).toBe(0);
    expect(terminalBench1Importer.detect(dirSource(path.join(trialDir("hello-world"), "sessions")))).toBe(0);
  });
});

describe("commands.txt lines", () => {
  it("parses Python list reprs, including escapes and double-quoted strings", () => {
    expect(parseKeysLine("['ls -la', 'Enter']")).toEqual(["ls -la", "Enter"]);
    expect(parseKeysLine(`["it's", 'Enter']`)).toEqual(["it's", "Enter"]);
    expect(parseKeysLine("['a\\nb\\tc\\\\d\\'e\\x41\\u00e9', 'C-c']")).toEqual(["a\nb\tc\\d'eAé", "C-c"]);
    expect(parseKeysLine("[]")).toEqual([]);
    for (const bad of ["['ls', 'Enter'", "ls", "['ls' 'Enter']", "[1, 2]", "['\\x4']", "['unterminated]"])
      expect(parseKeysLine(bad)).toBeNull();
  });

  it("renders keys as a readable command", () => {
    expect(renderKeys(["git status", "Enter"])).toBe("git status");
    expect(renderKeys(["C-c"])).toBe("C-c");
    expect(renderKeys(["vim x", "Enter", "i", "hi", "Escape", ":wq", "Enter"])).toBe("vim x\nihi Escape :wq");
    expect(renderKeys(["python3", "Enter", "print(1)", "Enter", "C-d"])).toBe("python3\nprint(1)\nC-d");
  });
});

describe("Terminal-Bench 1 robustness", () => {
  function trial(files: Record<string, string | Buffer>): string {
    const dir = path.join(tmp, "run", "demo", "demo.1-of-1.run");
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    return dir;
  }

  it("garbage results.json, binary cast and commands: issues by file, a trajectory from what is left", async () => {
    const dir = trial({
      "results.json": '{\n  "is_resolved": tru',
      "sessions/agent.cast": Buffer.from([0x00, 0x01, 0x02, 0x03]),
      "commands.txt": "['make', 'Enter']\n\u0000\u0001garbage\n",
    });
    const { trajectories, issues } = await read(dirSource(dir, "demo.1-of-1.run"));
    expect(issues.map((i) => [i.file, i.line, i.message.split(":")[0]])).toEqual([
      ["demo.1-of-1.run/results.json", 2, "invalid JSON"],
      ["demo.1-of-1.run/sessions/agent.cast", undefined, "binary file, not an asciicast recording"],
      ["demo.1-of-1.run/commands.txt", 2, "expected a Python list of strings, e.g. ['ls', 'Enter']"],
    ]);
    expect(trajectories.map((t) => [t.id, t.task.id, t.run.name, t.outcome, t.steps.map((s) => s.action)])).toEqual([
      ["tb1:run/demo.1-of-1.run", "demo", "run", "unknown", ["make"]],
    ]);
  });

  it("a wrongly typed field in results.json is named by its path", async () => {
    const dir = trial({ "results.json": JSON.stringify({ task_id: "demo", is_resolved: "yes" }), "commands.txt": "" });
    const { issues } = await read(dirSource(dir, "t"));
    expect(issues[0]).toMatchObject({ file: "t/results.json", path: "is_resolved", message: expect.stringMatching(/expected boolean/) });
  });
});
