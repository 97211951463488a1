// Deterministic generator of realistic synthetic terminal-agent trajectories (demo data and scale data).
// Produces native-format trajectories: failures with real-looking output, fork points and 2–8 recovery attempts.
import { NATIVE_FORMAT, type RecordingEvent, type StepInput, type TrajectoryInput } from "../domain/trajectory.ts";
import { AGENTS, MODELS, TASK_TEMPLATES, type TaskTemplate } from "./tasks.ts";
import { ERROR_SCENARIOS, bulkyOutput, type ErrorScenario } from "./scenarios.ts";
import { mulberry32, type Rng } from "../domain/random.ts";

export interface GenerateOptions {
  /** Total trajectories to produce, recovery attempts included. */
  count: number;
  seed?: number;
  /** Share of root trajectories that get a terminal recording (default 0.25). */
  recordingRate?: number;
  /** Start time of the first trajectory (default 2026-10-01). */
  epochMs?: number;
  /**
   * Training steps at which the GRPO and recovery-GRPO runs are evaluated (e.g. [100, 200, 400]), their skill
   * growing with the step, so analytics show training curves. Unset = one checkpoint per method (step 400), the
   * data every existing seed produces.
   */
  checkpoints?: number[];
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

const PROMPT = "\u001b[1;32mroot@sandbox\u001b[0m:\u001b[1;34m/app\u001b[0m# ";

interface RunSpec {
  name: string;
  model: string;
  agent: string;
  checkpoint: string;
  trainingMethod: "base" | "grpo" | "recovery-grpo" | "sft";
  /** Probability a root trajectory passes. */
  skill: number;
  /** Probability a recovery attempt passes. */
  recovery: number;
}

function buildRuns(rng: Rng, checkpoints?: number[]): RunSpec[] {
  const runs: RunSpec[] = [];
  const models = MODELS.slice(0, 3);
  const steps = checkpoints?.length ? [...new Set(checkpoints)].sort((a, b) => a - b) : [400];
  const last = steps.at(-1)!;
  // Skill and recovery grow linearly from the base model's to the method's value at the last step.
  const at = (step: number, base: number, final: number) => Number((base + ((final - base) * step) / last).toFixed(3));
  for (const model of models) {
    const agent = pick(rng, AGENTS);
    runs.push({ name: `${model}-base`, model, agent, checkpoint: "step-0", trainingMethod: "base", skill: 0.25, recovery: 0.2 });
    for (const step of steps) {
      runs.push({
        name: `${model}-grpo-s${step}`,
        model,
        agent,
        checkpoint: `step-${step}`,
        trainingMethod: "grpo",
        skill: at(step, 0.25, 0.33),
        recovery: at(step, 0.2, 0.3),
      });
    }
    for (const step of steps) {
      runs.push({
        name: `${model}-recovery-grpo-s${step}`,
        model,
        agent,
        checkpoint: `step-${step}`,
        trainingMethod: "recovery-grpo",
        skill: at(step, 0.25, 0.38),
        recovery: at(step, 0.2, 0.5),
      });
    }
  }
  if (!checkpoints?.length) {
    // Keep the historical order (base, grpo, recovery-grpo per model) so existing seeds produce the same data.
    return models.flatMap((m) => runs.filter((r) => r.model === m));
  }
  return runs;
}

function agentStep(rng: Rng, clock: { t: number }, reasoning: string, cmd: string, out: string, exitCode: number): StepInput {
  const think = int(rng, 2500, 40_000);
  const run = Math.min(int(rng, 50, 2500) + out.length / 40, 120_000);
  clock.t += think + run;
  return {
    source: "agent",
    offsetMs: Math.round(clock.t),
    reasoning,
    action: cmd,
    toolCalls: [{ id: `call_${Math.floor(clock.t)}`, name: "bash", arguments: { keystrokes: `${cmd}\n`, duration: 1 } }],
    observation: `${PROMPT}${cmd}\r\n${out.replace(/\n/g, "\r\n")}${out ? "\r\n" : ""}`,
    exitCode,
    promptTokens: int(rng, 1500, 24_000),
    completionTokens: int(rng, 40, 900),
  };
}

const EXPLORE: { why: string; cmd: string; out: (t: TaskTemplate) => string }[] = [
  {
    why: "Read the README for constraints.",
    cmd: "cat README.md",
    out: (t) => `# ${t.name}\n\n${t.instruction}\n\nRun the checks with the provided test script.`,
  },
  {
    why: "See what the tests expect.",
    cmd: "ls tests && head -30 tests/test_outputs.py",
    out: () =>
      "test_outputs.py\nimport subprocess\n\ndef test_deliverable():\n    out = subprocess.run(['bash', 'run.sh'], capture_output=True, text=True)\n    assert out.returncode == 0\n    assert 'OK' in out.stdout",
  },
  {
    why: "Check git state.",
    cmd: "git status --short && git log --oneline | head -3",
    out: () => " M main.py\n?? notes.txt\n3f9c2ab initial import\n1a2b3c4 add tests",
  },
  {
    why: "Check disk and memory before building.",
    cmd: "df -h / && free -m",
    out: () =>
      "Filesystem      Size  Used Avail Use% Mounted on\noverlay          59G   21G   36G  37% /\n               total        used        free\nMem:            7940        1203        5112",
  },
  {
    why: "Look for the entry point.",
    cmd: "grep -rn 'def main\\|if __name__' --include=*.py . | head",
    out: () => "./main.py:38:def main(path):\n./main.py:44:if __name__ == '__main__':",
  },
  {
    why: "Check which packages are installed.",
    cmd: "pip list 2>/dev/null | head -8",
    out: () => "Package    Version\n---------- -------\npip        24.0\npytest     8.3.3\nsetuptools 70.0.0",
  },
  {
    why: "Inspect the environment.",
    cmd: "env | grep -E 'PATH|HOME|LANG' | sort",
    out: () => "HOME=/root\nLANG=C.UTF-8\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  },
  {
    why: "Find configuration files.",
    cmd: "find . -maxdepth 2 -name '*.yaml' -o -maxdepth 2 -name '*.toml' | head",
    out: () => "./config.yaml\n./pyproject.toml",
  },
];

function explore(rng: Rng, clock: { t: number }, task: TaskTemplate): StepInput[] {
  const steps: StepInput[] = [];
  steps.push(
    agentStep(
      rng,
      clock,
      "Start by looking at what is in the working directory.",
      "ls -la",
      `total 32\ndrwxr-xr-x 1 root root 4096 Oct  1 09:12 \u001b[1;34m.\u001b[0m\n-rw-r--r-- 1 root root  812 Oct  1 09:12 README.md\ndrwxr-xr-x 2 root root 4096 Oct  1 09:12 \u001b[1;34mtests\u001b[0m\n-rw-r--r-- 1 root root 2210 Oct  1 09:12 ${task.lang === "python" ? "main.py" : task.lang === "node" ? "package.json" : task.lang === "rust" ? "Cargo.toml" : task.lang === "c" ? "Makefile" : "setup.sh"}`,
      0,
    ),
  );
  const n = int(rng, 4, 9);
  const pool = [...EXPLORE];
  for (let i = 0; i < n && pool.length; i++) {
    const e = pool.splice(Math.floor(rng() * pool.length), 1)[0]!;
    steps.push(agentStep(rng, clock, e.why, e.cmd, e.out(task), 0));
  }
  if (rng() < 0.5)
    steps.push(
      agentStep(
        rng,
        clock,
        "Check the toolchain versions.",
        task.lang === "python"
          ? "python3 --version"
          : task.lang === "node"
            ? "node --version"
            : task.lang === "rust"
              ? "cargo --version"
              : "gcc --version | head -1",
        task.lang === "python"
          ? "Python 3.12.3"
          : task.lang === "node"
            ? "v22.11.0"
            : task.lang === "rust"
              ? "cargo 1.83.0"
              : "gcc (Debian 12.2.0-14) 12.2.0",
        0,
      ),
    );
  return steps;
}

function solve(rng: Rng, clock: { t: number }, task: TaskTemplate): StepInput[] {
  const steps = task.solution.map((s) => agentStep(rng, clock, `Apply the fix: ${s.cmd.split("\n")[0]!.slice(0, 60)}`, s.cmd, s.out, 0));
  for (let i = int(rng, 2, 8); i > 0; i--) {
    const file = pick(rng, ["main.py", "src/lib.rs", "src/index.js", "Makefile", "config.yaml", "run.sh"]);
    steps.push(
      rng() < 0.5
        ? agentStep(
            rng,
            clock,
            `Look at ${file} around the relevant code.`,
            `sed -n '${i * 20},${i * 20 + 25}p' ${file}`,
            Array.from(
              { length: 12 },
              (_, k) =>
                `${i * 20 + k}  ${pick(rng, ["    return result", "def helper(x):", "    for row in rows:", "        total += row.amount", "if err != nil {", "    let mut out = Vec::new();", "  - name: api", 'echo "OK"'])}`,
            ).join("\n"),
            0,
          )
        : agentStep(
            rng,
            clock,
            `Edit ${file}.`,
            `python3 - <<'EOF'\nimport re\np='${file}'\ns=open(p).read()\nopen(p,'w').write(s.replace('old_${i}', 'new_${i}'))\nEOF`,
            "",
            0,
          ),
    );
  }
  if (rng() < 0.7)
    steps.push(
      agentStep(
        rng,
        clock,
        "Review the change before testing.",
        "git diff --stat",
        " main.py | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)",
        0,
      ),
    );
  if (rng() < 0.5)
    steps.push(agentStep(rng, clock, "Run a quick smoke check.", "bash run.sh | tail -3", "processing input...\nwrote output\nOK", 0));
  steps.push(
    agentStep(
      rng,
      clock,
      "Run the tests to verify the deliverable.",
      "bash run-tests.sh",
      `${bulkyOutput(rng, "pytest-pass", int(rng, 5, 40))}`,
      0,
    ),
  );
  return steps;
}

/** `vary` varies the failure's paths and numbers apart from `rng`, so every other draw stays as it was. */
function failAt(rng: Rng, clock: { t: number }, scenario: ErrorScenario, recovered: boolean, vary: Rng): StepInput[] {
  const steps = [agentStep(rng, clock, scenario.reasoning, scenario.cmd, scenario.output(rng, vary), scenario.exitCode)];
  if (!recovered) {
    // The agent never recovers: it retries the same thing or declares completion prematurely.
    const n = int(rng, 3, 10);
    for (let i = 0; i < n; i++) {
      steps.push(
        rng() < 0.6
          ? agentStep(rng, clock, "That should work now, try again.", scenario.cmd, scenario.output(rng, vary), scenario.exitCode)
          : agentStep(
              rng,
              clock,
              "Look around for another approach.",
              pick(rng, ["ls", "pwd", "cat README.md | head -5", "env | grep -i path"]),
              "README.md  tests",
              0,
            ),
      );
    }
  }
  return steps;
}

function recordingFor(steps: StepInput[], rng: Rng): { width: number; height: number; events: RecordingEvent[] } {
  const events: RecordingEvent[] = [[0, "o", PROMPT]];
  let t = 0.2;
  steps.forEach((s, i) => {
    if (s.source !== "agent" || !s.action) return;
    const base = (s.offsetMs ?? 0) / 1000;
    t = Math.max(t, base - 1.5);
    events.push([+t.toFixed(3), "m", `step ${i}`]);
    for (const ch of s.action.slice(0, 400)) {
      t += 0.01 + rng() * 0.04;
      events.push([+t.toFixed(3), "o", ch === "\n" ? "\r\n> " : ch]);
    }
    t += 0.05;
    events.push([+t.toFixed(3), "o", "\r\n"]);
    const body = (s.observation ?? "").split("\r\n").slice(1);
    for (let j = 0; j < body.length; j += 4) {
      t += 0.02 + rng() * 0.2;
      events.push([+t.toFixed(3), "o", body.slice(j, j + 4).join("\r\n") + "\r\n"]);
    }
    events.push([+(t + 0.01).toFixed(3), "o", PROMPT]);
  });
  return { width: 120, height: 32, events };
}

/** Yields `count` trajectories: roots, and for some failed roots a fork point with 2–8 recovery attempts. */
export function* generateTrajectories(opts: GenerateOptions): Generator<TrajectoryInput> {
  const rng = mulberry32(opts.seed ?? 42);
  const runs = buildRuns(rng, opts.checkpoints);
  const epoch = opts.epochMs ?? Date.UTC(2026, 9, 1, 8);
  const recordingRate = opts.recordingRate ?? 0.25;
  let produced = 0;
  let serial = 0;

  while (produced < opts.count) {
    const run = pick(rng, runs);
    const task = pick(rng, TASK_TEMPLATES);
    const started = epoch + serial * 97_000 + int(rng, 0, 60_000);
    const rootId = `gen-${opts.seed ?? 42}-${serial++}`;
    const clock = { t: 0 };
    const steps: StepInput[] = [{ source: "user", offsetMs: 0, message: `${task.instruction}\n\nYou are in a Linux sandbox at /app.` }];
    steps.push(...explore(rng, clock, task));

    const passes = rng() < run.skill;
    const hitsError = !passes || rng() < 0.5;
    const scenario = pick(
      rng,
      ERROR_SCENARIOS.filter((s) => s.langs.includes(task.lang)),
    );
    let errorStep = -1;
    if (hitsError) {
      errorStep = steps.length;
      steps.push(...failAt(rng, clock, scenario, passes, mulberry32(started ^ 0x5bd1e995)));
    }
    if (passes) steps.push(...solve(rng, clock, task));
    else steps.push(agentStep(rng, clock, "I believe the task is complete.", "echo done", "done", 0));

    const root = finish({ id: rootId, task, run, started, steps, passed: passes, scenario: hitsError ? scenario : undefined, rng });
    if (rng() < recordingRate) root.recording = { format: "asciicast-v2", ...recordingFor(steps, rng) };
    yield root;
    produced++;

    // Recovery training: fork failed roots at their failure state into independent attempts.
    if (!passes && errorStep >= 0 && rng() < 0.6 && produced < opts.count) {
      const attempts = Math.min(int(rng, 2, 8), opts.count - produced);
      const prefix = steps.slice(0, errorStep + 1).map((s) => ({ ...s, isCopiedContext: true }));
      for (let a = 0; a < attempts; a++) {
        const aClock = { t: prefix.at(-1)!.offsetMs ?? 0 };
        const ok = rng() < run.recovery;
        const tail: StepInput[] = [];
        if (ok) {
          tail.push(agentStep(rng, aClock, scenario.recoveryReasoning, scenario.fix, scenario.fixOutput, 0));
          tail.push(...solve(rng, aClock, task));
        } else if (rng() < 0.5) {
          tail.push(...failAt(rng, aClock, scenario, false, mulberry32((started + a + 1) ^ 0x5bd1e995)));
          tail.push(agentStep(rng, aClock, "I believe the task is complete.", "echo done", "done", 0));
        } else {
          tail.push(agentStep(rng, aClock, scenario.recoveryReasoning, scenario.fix, scenario.fixOutput, 0));
          tail.push(agentStep(rng, aClock, "Run the tests.", "bash run-tests.sh", bulkyOutput(rng, "pytest-fail", int(rng, 5, 30)), 1));
        }
        const attempt = finish({
          id: `${rootId}-a${a}`,
          task,
          run,
          started: started + (a + 1) * 1000,
          steps: [...prefix, ...tail],
          passed: ok,
          scenario,
          rng,
        });
        attempt.fork = { parentId: rootId, stepIndex: errorStep, attemptIndex: a, errorCategory: scenario.category };
        yield attempt;
        produced++;
      }
    }
  }
}

function finish(a: {
  id: string;
  task: TaskTemplate;
  run: RunSpec;
  started: number;
  steps: StepInput[];
  passed: boolean;
  scenario?: ErrorScenario;
  rng: Rng;
}): TrajectoryInput {
  const last = a.steps.at(-1)?.offsetMs ?? 0;
  const timedOut = !a.passed && a.scenario?.category === "hang" && a.rng() < 0.7;
  return {
    format: NATIVE_FORMAT,
    id: a.id,
    task: {
      benchmark: "reterm-synthetic",
      id: a.task.id,
      name: a.task.name,
      instruction: a.task.instruction,
      category: a.task.category,
      difficulty: a.task.difficulty,
    },
    run: {
      name: a.run.name,
      model: a.run.model,
      agent: a.run.agent,
      checkpoint: a.run.checkpoint,
      trainingMethod: a.run.trainingMethod,
      source: "generator",
    },
    outcome: a.passed ? "passed" : "failed",
    reward: a.passed ? 1 : 0,
    verifierOutput: a.passed
      ? "============================= 6 passed in 1.42s =============================="
      : `FAILED tests/test_outputs.py::test_deliverable - AssertionError\n=========================== 1 failed, 5 passed in 1.87s ===========================`,
    failureMode: timedOut ? "agent_timeout" : undefined,
    startedAt: new Date(a.started).toISOString(),
    endedAt: new Date(a.started + last + 2000).toISOString(),
    inputTokens: a.steps.reduce((n, s) => n + (s.promptTokens ?? 0), 0),
    outputTokens: a.steps.reduce((n, s) => n + (s.completionTokens ?? 0), 0),
    steps: a.steps,
  };
}
