import { isRecord } from "./util.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import type { ImportIssue, ImportSource, ReadOptions } from "./types.ts";
import { harborImporter } from "./harbor.ts";
import { dirSource } from "./source.ts";
import { walkInputs } from "./walk.ts";
import { attachedWarnings } from "./test-reader.ts";

const JOB = path.join(import.meta.dirname, "__fixtures__/harbor/2026-01-10__12-00-00");
const JOB_NAME = "2026-01-10__12-00-00";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-harbor-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function read(
  source: ImportSource,
  options: ReadOptions = {},
): Promise<{ trajectories: TrajectoryInput[]; issues: ImportIssue[]; files: string[] }> {
  const trajectories: TrajectoryInput[] = [];
  const issues: ImportIssue[] = [];
  const files: string[] = [];
  for await (const r of harborImporter.read(source, options)) {
    if (r.ok) {
      trajectories.push(r.value.trajectory);
      files.push(r.file);
      expect(r.value.sourceFormat).toBe("harbor");
      issues.push(...attachedWarnings(r));
    } else issues.push(r.issue);
  }
  return { trajectories, issues, files };
}

const trialOf = (t: TrajectoryInput) => (isRecord(t.metadata?.harbor) ? t.metadata.harbor.trialName : undefined);
const byTrial = (ts: TrajectoryInput[], trial: string) => ts.filter((t) => trialOf(t) === trial);

describe("Harbor job folder", () => {
  it("is detected as a job and claims its trials and job files, so the walker reads nothing twice", async () => {
    const job = dirSource(JOB, JOB_NAME);
    expect(harborImporter.detect(job)).toBe(0.95);
    const claimed = harborImporter.claims!(job).map((p) => path.relative(JOB, p));
    expect(claimed.sort()).toEqual(
      [
        "broken-result__Mn1Op2q",
        "build-cache__Qr5St6u",
        "config.json",
        "fix-permissions__Zx9Yw8v",
        "fix-permissions__aB3dE5f",
        "job.log",
        "result.json",
        "setup-fail__Kk7Ll8m",
      ].sort(),
    );
    const units = [];
    for await (const u of walkInputs([JOB], { format: harborImporter })) units.push(u);
    expect(
      units.map((u) => (u.kind === "source" ? `${u.importer.format}:${u.source.displayPath}` : `unrecognised:${u.displayPath}`)),
    ).toEqual([`harbor:${JOB_NAME}`]);
  });

  it("reads every trial: five trajectories, one sub-agent, and one issue for the malformed result.json", async () => {
    const { trajectories, issues, files } = await read(dirSource(JOB, JOB_NAME));
    expect(issues).toEqual([
      {
        file: `${JOB_NAME}/broken-result__Mn1Op2q/result.json`,
        line: 5,
        message: "invalid JSON: Expected ',' or '}' after property value",
        severity: "warning",
      },
    ]);
    expect(trajectories.map((t) => [t.task.id, t.outcome, t.reward ?? null, t.failureMode ?? null])).toEqual([
      ["broken-result", "passed", 1, null],
      ["build-cache", "failed", 0, null],
      ["fix-permissions", "failed", 0, "AgentTimeoutError"],
      ["fix-permissions", "unknown", null, null],
      ["fix-permissions", "passed", 1, null],
      ["setup-fail", "failed", null, "EnvironmentStartTimeoutError"],
    ]);
    expect(new Set(trajectories.map((t) => t.run.name))).toEqual(new Set([JOB_NAME]));
    expect(files[0]).toBe(`${JOB_NAME}/broken-result__Mn1Op2q/agent/trajectory.json`);
  });

  it("passed trial: ATIF steps, result.json outcome and times, verifier output, recording attached", async () => {
    const [t] = byTrial((await read(dirSource(JOB, JOB_NAME))).trajectories, "fix-permissions__aB3dE5f");
    expect(t!.id).toBe("atif:3b1f6a0e-5c2d-4e8f-9a1b-7c6d5e4f3a21");
    expect(t!.task).toEqual({ benchmark: "terminal-bench", id: "fix-permissions", name: "fix-permissions" });
    expect(t!.run).toEqual({ name: JOB_NAME, agent: "terminus-2", model: "gpt-5" });
    expect([t!.startedAt, t!.endedAt]).toEqual(["2026-01-10T12:00:01.000Z", "2026-01-10T12:00:52.000Z"]);
    expect([t!.inputTokens, t!.outputTokens]).toEqual([3100, 260]);
    expect(t!.steps.map((s) => s.action)).toEqual([
      undefined,
      "./run.sh",
      "chmod +x run.sh\n./run.sh && cat done.txt",
      "mark_task_complete()",
    ]);
    expect(t!.steps[1]!.observation).toContain("bash: ./run.sh: Permission denied");
    expect(t!.steps.map((s) => s.offsetMs)).toEqual([0, 7250, 15500, 26000]);
    expect(t!.verifierOutput).toContain("2 passed in 0.04s");
    expect(t!.recording).toMatchObject({ format: "asciicast-v2", width: 160, height: 40 });
    expect(t!.recording!.events).toHaveLength(15);
    expect(t!.recording!.events.filter((e) => e[1] === "m").map((e) => e[2])).toEqual([
      "Episode 1: 1 commands",
      "Episode 2: 2 commands",
      "Episode 3: 0 commands",
    ]);
    expect(t!.metadata).toMatchObject({
      harbor: { trialId: "6a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d", rewards: { reward: 1 }, costUsd: 0.0123 },
    });
  });

  it("timed-out trial: failure mode from the exception, continuation merged, sub-agent linked but not scored", async () => {
    const trials = byTrial((await read(dirSource(JOB, JOB_NAME))).trajectories, "fix-permissions__Zx9Yw8v");
    const [main, sub] = trials;
    expect(main!.id).toBe("atif:9c8d7e6f-1a2b-4c3d-8e5f-6a7b8c9d0e1f");
    expect(main!.metadata).toMatchObject({
      atif: { segments: 2 },
      harbor: { exceptionMessage: "Agent execution timed out after 900.0 seconds" },
    });
    expect(main!.steps).toHaveLength(6);
    expect(main!.steps.map((s) => s.isCopiedContext === true)).toEqual([false, false, false, true, false, false]);
    expect(main!.steps[5]!.action).toBe("sh run.sh");
    expect([main!.inputTokens, main!.outputTokens]).toEqual([9000, 700]);
    expect(main!.verifierOutput).toContain("FAILED tests/test_outputs.py::test_done_file_exists");
    expect(sub!.id).toBe("atif:9c8d7e6f-summarization-1-summary");
    expect(sub!.metadata).toMatchObject({ subagent: true, subagentOf: main!.id });
    expect(sub!.metadata?.harbor).toEqual({
      trialName: "fix-permissions__Zx9Yw8v",
      jobName: JOB_NAME,
      trialId: "7b2e3d4c-5f6a-4b7c-9d8e-0f1a2b3c4d5e",
    });
    expect(sub!.task.id).toBe("fix-permissions");
  });

  it("trial with only a recording: steps derived from the cast, reward from verifier/reward.txt", async () => {
    const [t] = byTrial((await read(dirSource(JOB, JOB_NAME))).trajectories, "build-cache__Qr5St6u");
    expect(t!.id).toBe("harbor:8c3f4e5d-6a7b-4c8d-8e9f-1a2b3c4d5e6f");
    expect(t!.run).toEqual({ name: JOB_NAME, agent: "claude-code", model: "claude-sonnet-4" });
    expect(t!.steps.map((s) => s.action)).toEqual(["make build", "ls include"]);
    expect(t!.steps[0]!.observation).toContain("main.c:3:10: fatal error: cache.h: No such file or directory");
    expect(t!.steps[1]!.observation).toBe("cache.h.in");
    expect(t!.recording).toMatchObject({ format: "asciicast-v3", width: 120, height: 30 });
    expect(t!.recording!.events.at(-1)).toEqual([expect.closeTo(6.4, 6), "x", "0"]);
    expect([t!.inputTokens, t!.outputTokens]).toEqual([5000, 400]);
  });

  it("trial that failed before the agent ran: outcome and failure mode without steps, no issue", async () => {
    const [t] = byTrial((await read(dirSource(JOB, JOB_NAME))).trajectories, "setup-fail__Kk7Ll8m");
    expect(t!.steps).toEqual([]);
    expect(t!.id).toBe("harbor:0e5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d");
    expect(t!.metadata).toMatchObject({ harbor: { exceptionMessage: "docker compose up did not finish within 600 s" } });
  });
});

describe("Harbor trial folder on its own", () => {
  const trialDir = path.join(JOB, "fix-permissions__aB3dE5f");

  it("is detected as a trial, claims everything in it, and takes the job folder as run name", async () => {
    const trial = dirSource(trialDir, "fix-permissions__aB3dE5f");
    expect(harborImporter.detect(trial)).toBe(0.9);
    expect(
      harborImporter.claims!(trial)
        .map((p) => path.basename(p))
        .sort(),
    ).toEqual(["agent", "config.json", "result.json", "trial.log", "verifier"]);
    const { trajectories, issues } = await read(trial);
    expect(issues).toEqual([]);
    expect(trajectories.map((t) => [t.run.name, t.outcome])).toEqual([[JOB_NAME, "passed"]]);
    expect((await read(trial, { runName: "override" })).trajectories[0]!.run.name).toBe("override");
  });

  it("does not claim folders that are not Harbor output", () => {
    expect(harborImporter.detect(dirSource(path.join(trialDir, "agent")))).toBe(0);
    expect(harborImporter.detect(dirSource(path.join(import.meta.dirname, "__fixtures__/tb1/2025-06-20__14-03-11")))).toBe(0);
    expect(harborImporter.claims!(dirSource(path.join(trialDir, "verifier")))).toEqual([]);
  });
});

describe("Harbor robustness: malformed parts are reported by file, the trial is kept", () => {
  function trial(name: string, files: Record<string, string | Buffer>): string {
    const dir = path.join(tmp, name);
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    return dir;
  }
  const result = (over: Record<string, unknown> = {}) =>
    JSON.stringify({ id: "t-1", task_name: "demo", trial_name: "demo__abcdefg", verifier_result: { rewards: { reward: 1 } }, ...over });

  it("binary trajectory.json and a broken recording: issues for both, outcome still imported", async () => {
    const dir = trial("demo__abcdefg", {
      "result.json": result(),
      "agent/trajectory.json": Buffer.from([0x7b, 0x00, 0x01, 0x02]),
      "agent/recording.cast": "not a recording",
    });
    const { trajectories, issues } = await read(dirSource(dir, "demo__abcdefg"));
    expect(issues).toEqual([
      {
        file: "demo__abcdefg/agent/recording.cast",
        message: "not an asciicast recording: the first line is not a JSON header object",
        severity: "warning",
      },
      { file: "demo__abcdefg/agent/trajectory.json", message: "file is binary, not JSON text", severity: "warning" },
    ]);
    expect(trajectories.map((t) => [t.id, t.outcome, t.steps.length])).toEqual([["harbor:t-1", "passed", 0]]);
  });

  it("a schema error in result.json names the field; an unreadable reward.txt is reported", async () => {
    const dir = trial("bad__hijklmn", {
      "result.json": result({ verifier_result: { rewards: { reward: "yes" } } }),
      "verifier/reward.txt": "passed!",
      "agent/trajectory.json": JSON.stringify({ schema_version: "ATIF-v1.6", session_id: "s", agent: { name: "a" }, steps: [] }),
    });
    const { trajectories, issues } = await read(dirSource(dir, "bad__hijklmn"));
    expect(issues).toEqual([
      {
        file: "bad__hijklmn/result.json",
        path: "verifier_result.rewards.reward",
        message: expect.stringMatching(/expected number/),
        severity: "warning",
      },
      { file: "bad__hijklmn/verifier/reward.txt", message: 'expected a number, got "passed!"', severity: "warning" },
    ]);
    expect(trajectories.map((t) => [t.id, t.outcome, t.task.id])).toEqual([["atif:s", "unknown", "bad"]]);
  });

  it("a trial with neither trajectory nor recording nor exception is imported with an issue saying so", async () => {
    const dir = trial("empty__opqrstu", {
      "result.json": result({ verifier_result: null }),
      "verifier/reward.json": '{"reward": 0}',
      "verifier/test-stdout.txt": "x".repeat(200 * 1024),
    });
    const { trajectories, issues } = await read(dirSource(dir, "empty__opqrstu"));
    expect(issues).toEqual([
      {
        file: "empty__opqrstu",
        message: "trial has no agent/trajectory.json or agent/recording.cast; imported its outcome without steps",
        severity: "warning",
      },
    ]);
    expect(trajectories[0]).toMatchObject({ outcome: "failed", reward: 0, steps: [] });
    expect(trajectories[0]!.verifierOutput!.length).toBeLessThanOrEqual(64 * 1024 + 40);
    expect(trajectories[0]!.verifierOutput).toMatch(/^\[… \d+ bytes omitted …\]/);
  });
});
