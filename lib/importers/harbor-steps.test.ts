// Harbor multi-step trials (steps/<name>/{agent,verifier}/ + step_results[]): built by hand in a temp folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import type { ImportIssue } from "./types.ts";
import { harborImporter, isTrialDir } from "./harbor.ts";
import { dirSource } from "./source.ts";
import { isRecord } from "./util.ts";
import { walkInputs } from "./walk.ts";
import { attachedWarnings } from "./test-reader.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-harbor-steps-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): string {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

async function read(dir: string, display: string): Promise<{ trajectories: TrajectoryInput[]; issues: ImportIssue[] }> {
  const trajectories: TrajectoryInput[] = [];
  const issues: ImportIssue[] = [];
  for await (const r of harborImporter.read(dirSource(dir, display), {})) {
    if (r.ok) {
      trajectories.push(r.value.trajectory);
      issues.push(...attachedWarnings(r));
    } else issues.push(r.issue);
  }
  return { trajectories, issues };
}

/** A minimal ATIF v1.5 trajectory: the step's instruction, then one command per agent turn with its output. */
function atif(session: string, start: string, turns: [command: string, output: string][], tokens: [number, number]): string {
  const t0 = Date.parse(start);
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  return JSON.stringify({
    schema_version: "ATIF-v1.5",
    session_id: session,
    agent: { name: "terminus-2", version: "2.0.0", model_name: "gpt-5" },
    steps: [
      { step_id: 1, timestamp: at(0), source: "user", message: `Instruction for ${session}` },
      ...turns.map(([command, output], i) => ({
        step_id: i + 2,
        timestamp: at(5 * (i + 1)),
        source: "agent",
        message: `Running ${command}`,
        tool_calls: [{ tool_call_id: `${session}-${i}`, function_name: "bash_command", arguments: { keystrokes: `${command}\n` } }],
        observation: { results: [{ source_call_id: `${session}-${i}`, content: output }] },
      })),
    ],
    final_metrics: { total_prompt_tokens: tokens[0], total_completion_tokens: tokens[1] },
  });
}

const trialResult = (over: Record<string, unknown>) =>
  JSON.stringify({
    task_name: "build-app",
    source: "terminal-bench",
    agent_info: { name: "terminus-2", version: "2.0.0", model_info: { name: "gpt-5", provider: "openai" } },
    started_at: "2026-02-01T09:59:58Z",
    finished_at: "2026-02-01T10:02:00Z",
    ...over,
  });

describe("Harbor multi-step trial in a job folder", () => {
  const job = write(path.join(tmp, "job-1"), {
    "config.json": "{}",
    "result.json": '{"n_completed_trials": 2}',
    // Executed scaffold → implement; their folder names sort the other way round, so order must come from step_results.
    "build-app__Ms1Ab2c/result.json": trialResult({
      id: "trial-ms-1",
      trial_name: "build-app__Ms1Ab2c",
      verifier_result: { rewards: { reward: 0.5 } },
      step_results: [
        { step_name: "scaffold", verifier_result: { rewards: { reward: 1 } }, future_field: { kept: true } },
        { step_name: "implement", verifier_result: { rewards: { reward: 0 } } },
      ],
    }),
    "build-app__Ms1Ab2c/steps/scaffold/agent/trajectory.json": atif(
      "sess-scaffold",
      "2026-02-01T10:00:00Z",
      [["mkdir -p app", "created"]],
      [100, 10],
    ),
    "build-app__Ms1Ab2c/steps/scaffold/verifier/test-stdout.txt": "test_scaffold PASSED\n1 passed in 0.01s\n",
    "build-app__Ms1Ab2c/steps/implement/agent/trajectory.json": atif(
      "sess-implement",
      "2026-02-01T10:01:00Z",
      [["python app/main.py", "Traceback: NameError"]],
      [200, 20],
    ),
    "build-app__Ms1Ab2c/steps/implement/agent/trajectory.summarization-1-summary.json": JSON.stringify({
      schema_version: "ATIF-v1.5",
      session_id: "sess-implement-summary",
      agent: { name: "terminus-2-summarization-summary", version: "2.0.0", extra: { parent_session_id: "sess-implement" } },
      steps: [{ step_id: 1, source: "user", message: "Summarize the work so far." }],
    }),
    "build-app__Ms1Ab2c/steps/implement/verifier/test-stdout.txt": "test_main FAILED\n1 failed in 0.02s\n",
    // A plain single-step trial next to it.
    "solo__Zz9Yy8x/result.json": trialResult({
      id: "trial-solo",
      trial_name: "solo__Zz9Yy8x",
      verifier_result: { rewards: { reward: 1 } },
    }),
    "solo__Zz9Yy8x/agent/trajectory.json": atif("sess-solo", "2026-02-01T11:00:00Z", [["make", "ok"]], [50, 5]),
    "solo__Zz9Yy8x/verifier/test-stdout.txt": "1 passed\n",
  });

  it("is walked as one Harbor job that claims both trials", async () => {
    expect(harborImporter.detect(dirSource(job, "job-1"))).toBe(0.95);
    expect(isTrialDir(path.join(job, "build-app__Ms1Ab2c"))).toBe(true);
    const units = [];
    for await (const u of walkInputs([job]))
      units.push(u.kind === "source" ? `${u.importer.format}:${u.source.displayPath}` : `unrecognised:${u.displayPath}`);
    expect(units).toEqual(["harbor:job-1"]);
  });

  it("imports the two-step trial as one trajectory: steps in step_results order on one timeline", async () => {
    const { trajectories, issues } = await read(job, "job-1");
    expect(issues).toEqual([]);
    const [multi] = trajectories.filter((t) => t.id === "harbor:trial-ms-1");
    expect(multi!.steps.map((s) => [s.source, s.action ?? s.message, s.observation])).toEqual([
      ["user", "Instruction for sess-scaffold", undefined],
      ["agent", "mkdir -p app", "created"],
      ["user", "Instruction for sess-implement", undefined],
      ["agent", "python app/main.py", "Traceback: NameError"],
    ]);
    expect(multi!.steps.map((s) => s.offsetMs)).toEqual([0, 5000, 60000, 65000]);
    expect(multi!.metadata?.harborSteps).toEqual([
      { name: "scaffold", firstStep: 0, stepCount: 2, reward: 1 },
      { name: "implement", firstStep: 2, stepCount: 2, reward: 0 },
    ]);
    expect(multi!.task).toEqual({ benchmark: "terminal-bench", id: "build-app", name: "build-app" });
    expect(multi!.run).toEqual({ name: "job-1", agent: "terminus-2", model: "gpt-5" });
    expect([multi!.inputTokens, multi!.outputTokens]).toEqual([300, 30]);
    expect([multi!.startedAt, multi!.endedAt]).toEqual(["2026-02-01T09:59:58.000Z", "2026-02-01T10:02:00.000Z"]);
  });

  it("takes outcome and reward from the trial's verifier_result, and joins the steps' test output in order", async () => {
    const [multi] = (await read(job, "job-1")).trajectories.filter((t) => t.id === "harbor:trial-ms-1");
    // 0.5 is what Harbor's "mean" roll-up wrote for the trial; anything below 1 is not a pass.
    expect([multi!.outcome, multi!.reward]).toEqual(["failed", 0.5]);
    expect(multi!.verifierOutput).toBe(
      "=== step scaffold ===\ntest_scaffold PASSED\n1 passed in 0.01s\n\n=== step implement ===\ntest_main FAILED\n1 failed in 0.02s\n",
    );
    expect(multi!.metadata?.harbor).toMatchObject({ trialId: "trial-ms-1", rewards: { reward: 0.5 } });
    expect(multi!.metadata?.harbor).not.toHaveProperty("rewardFrom");
  });

  it("links a step's summarization sub-agent to the trial's trajectory, not to the step's own session", async () => {
    const subs = (await read(job, "job-1")).trajectories.filter((t) => t.metadata?.subagent === true);
    expect(subs.map((t) => [t.id, t.metadata?.subagentOf])).toEqual([["atif:sess-implement-summary", "harbor:trial-ms-1"]]);
  });

  it("leaves a single-step trial as it was: its own steps, verifier output and reward, no step boundaries", async () => {
    const [solo] = (await read(job, "job-1")).trajectories.filter(
      (t) => isRecord(t.metadata?.harbor) && t.metadata.harbor.trialName === "solo__Zz9Yy8x",
    );
    expect(solo!.id).toBe("atif:sess-solo");
    expect(solo!.steps.map((s) => s.action ?? s.message)).toEqual(["Instruction for sess-solo", "make"]);
    expect([solo!.outcome, solo!.reward, solo!.verifierOutput]).toEqual(["passed", 1, "1 passed\n"]);
    expect(solo!.metadata?.harborSteps).toBeUndefined();
  });
});

describe("Harbor multi-step trial with problems", () => {
  it("a broken step trajectory is a warning naming its file; the other steps are imported", async () => {
    const dir = write(path.join(tmp, "broken__Bb1Cc2d"), {
      "result.json": trialResult({
        id: "t-broken",
        trial_name: "broken__Bb1Cc2d",
        verifier_result: { rewards: { reward: 0 } },
        step_results: [{ step_name: "one" }, { step_name: "two" }],
      }),
      "steps/one/agent/trajectory.json": '{\n  "schema_version": "ATIF-v1.5",\n  "steps": [\n',
      "steps/two/agent/trajectory.json": atif("sess-two", "2026-02-01T10:00:00Z", [["ls", "file"]], [10, 1]),
    });
    const { trajectories, issues } = await read(dir, "broken__Bb1Cc2d");
    expect(issues).toEqual([
      {
        file: "broken__Bb1Cc2d/steps/one/agent/trajectory.json",
        line: 4,
        message: expect.stringMatching(/^invalid JSON/),
        severity: "warning",
      },
    ]);
    expect(trajectories).toHaveLength(1);
    expect(trajectories[0]!.steps.map((s) => s.action ?? s.message)).toEqual(["Instruction for sess-two", "ls"]);
    expect(trajectories[0]!.metadata?.harborSteps).toEqual([
      { name: "one", firstStep: 0, stepCount: 0, reward: null },
      { name: "two", firstStep: 0, stepCount: 2, reward: null },
    ]);
    expect([trajectories[0]!.outcome, trajectories[0]!.reward]).toEqual(["failed", 0]);
  });

  it("a step folder that step_results names but that is missing is a warning; so is a bad step_results entry", async () => {
    const dir = write(path.join(tmp, "gone__Gg1Hh2i"), {
      "result.json": trialResult({
        id: "t-gone",
        trial_name: "gone__Gg1Hh2i",
        step_results: [
          { step_name: "first", reward: 1 },
          { step_name: "second", reward: "high" },
          { step_name: "../../etc" },
          { step_name: "third", reward: 1 },
        ],
      }),
      "steps/first/agent/trajectory.json": atif("sess-first", "2026-02-01T10:00:00Z", [["true", ""]], [1, 1]),
    });
    const { trajectories, issues } = await read(dir, "gone__Gg1Hh2i");
    expect(issues).toEqual([
      {
        file: "gone__Gg1Hh2i/result.json",
        path: "step_results[1].reward",
        message: expect.stringMatching(/expected number/),
        severity: "warning",
      },
      {
        file: "gone__Gg1Hh2i/result.json",
        path: "step_results[2]",
        message: 'step name "../../etc" is not a step folder name; ignored',
        severity: "warning",
      },
      { file: "gone__Gg1Hh2i/steps/third", message: "step folder is missing; the trial's other steps were imported", severity: "warning" },
    ]);
    expect(trajectories.map((t) => [t.id, t.steps.length])).toEqual([["harbor:t-gone", 2]]);
    expect(trajectories[0]!.metadata?.harborSteps).toEqual([
      { name: "first", firstStep: 0, stepCount: 2, reward: 1 },
      { name: "third", firstStep: 2, stepCount: 0, reward: 1 },
    ]);
    // No trial-level reward: Harbor's mean of the step rewards, both 1 → passed.
    expect([trajectories[0]!.outcome, trajectories[0]!.reward]).toEqual(["passed", 1]);
    expect(trajectories[0]!.metadata?.harbor).toMatchObject({ rewardFrom: "mean of step rewards" });
  });

  it("without step_results: folders in natural order, rewards from each step's reward.txt, a missing one counts as 0", async () => {
    const dir = write(path.join(tmp, "natural__Nn1Oo2p"), {
      "result.json": trialResult({ id: "t-natural", trial_name: "natural__Nn1Oo2p" }),
      "steps/step-10/agent/trajectory.json": atif("sess-10", "2026-02-01T10:05:00Z", [["echo ten", "ten"]], [1, 1]),
      "steps/step-2/agent/trajectory.json": atif("sess-2", "2026-02-01T10:00:00Z", [["echo two", "two"]], [1, 1]),
      "steps/step-2/verifier/reward.txt": "1\n",
      "steps/step-3/agent/trajectory.json": atif("sess-3", "2026-02-01T10:02:00Z", [["echo three", "three"]], [1, 1]),
      "steps/step-3/verifier/reward.txt": "1",
    });
    expect(harborImporter.detect(dirSource(dir))).toBe(0.9);
    const { trajectories, issues } = await read(dir, "natural__Nn1Oo2p");
    expect(issues).toEqual([]);
    const [t] = trajectories;
    expect(t!.steps.filter((s) => s.action).map((s) => s.action)).toEqual(["echo two", "echo three", "echo ten"]);
    expect(t!.metadata?.harborSteps).toEqual([
      { name: "step-2", firstStep: 0, stepCount: 2, reward: 1 },
      { name: "step-3", firstStep: 2, stepCount: 2, reward: 1 },
      { name: "step-10", firstStep: 4, stepCount: 2, reward: null },
    ]);
    expect([t!.outcome, t!.reward]).toEqual(["failed", 2 / 3]);
  });

  it("long test output of every step is cut to the usual bound as a whole, keeping each step's end", async () => {
    const long = (tag: string) => `${"x".repeat(99)}\n`.repeat(1000) + `${tag} summary\n`;
    const dir = write(path.join(tmp, "long__Ll1Mm2n"), {
      "result.json": trialResult({ id: "t-long", trial_name: "long__Ll1Mm2n", verifier_result: { rewards: { reward: 1 } } }),
      ...Object.fromEntries(
        ["s1", "s2", "s3"].flatMap((n) => [
          [`steps/${n}/agent/trajectory.json`, atif(`sess-${n}`, "2026-02-01T10:00:00Z", [["true", ""]], [1, 1])],
          [`steps/${n}/verifier/test-stdout.txt`, long(n)],
        ]),
      ),
    });
    const [t] = (await read(dir, "long__Ll1Mm2n")).trajectories;
    expect(t!.verifierOutput!.length).toBeLessThanOrEqual(64 * 1024);
    expect(t!.verifierOutput!.match(/^=== step s\d ===\n\[… \d+ bytes omitted …\]$/gm)).toEqual(
      ["s1", "s2", "s3"].map((n) => expect.stringContaining(`=== step ${n} ===`)),
    );
    for (const n of ["s1", "s2", "s3"]) expect(t!.verifierOutput).toContain(`${n} summary\n`);
  });

  it("steps with only a recording: steps derived from each cast, recordings joined with a marker (and resize) per step", async () => {
    const cast = (start: number, cmd: string, out: string, width = 80) =>
      [
        JSON.stringify({ version: 2, width, height: 24, timestamp: start }),
        JSON.stringify([0.5, "o", "$ "]),
        JSON.stringify([1, "i", `${cmd}\r`]),
        JSON.stringify([1.5, "o", `${cmd}\r\n${out}\r\n$ `]),
      ].join("\n") + "\n";
    const dir = write(path.join(tmp, "casts__Cc1Dd2e"), {
      "result.json": trialResult({
        id: "t-casts",
        trial_name: "casts__Cc1Dd2e",
        verifier_result: { rewards: { reward: 1 } },
        step_results: [{ step_name: "a" }, { step_name: "b" }],
      }),
      "steps/a/agent/recording.cast": cast(1_770_000_000, "ls", "x"),
      "steps/b/agent/recording.cast": cast(1_770_000_010, "pwd", "/app", 100),
    });
    const { trajectories, issues } = await read(dir, "casts__Cc1Dd2e");
    expect(issues).toEqual([]);
    const [t] = trajectories;
    expect(t!.recording!.events).toEqual([
      [0, "m", "step: a"],
      [0.5, "o", "$ "],
      [1, "i", "ls\r"],
      [1.5, "o", "ls\r\nx\r\n$ "],
      [10, "m", "step: b"],
      [10, "r", "100x24"],
      [10.5, "o", "$ "],
      [11, "i", "pwd\r"],
      [11.5, "o", "pwd\r\n/app\r\n$ "],
    ]);
    expect(t!.steps.map((s) => [s.action, s.observation, s.offsetMs])).toEqual([
      ["ls", "x", 500],
      ["pwd", "/app", 10500],
    ]);
    expect(t!.metadata?.harborSteps).toEqual([
      { name: "a", firstStep: 0, stepCount: 1, reward: null },
      { name: "b", firstStep: 1, stepCount: 1, reward: null },
    ]);
    expect(t!.outcome).toBe("passed");
  });
});
