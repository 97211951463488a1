// Data for bench/replay.ts: one trajectory of 2,000 steps with ~20 MB of terminal output, twice — as steps only
// (replayed as a synthesized session) and with a real recording (~20 MB of asciicast events) — written into
// bench/out/replay.db through the import service. Deterministic (seeded); rebuilt only when missing.
import fs from "node:fs";
import path from "node:path";
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { deleteReplayLayouts } from "../lib/db/repositories/replay/layouts.ts";
import { deleteSynthesizedKeyframes } from "../lib/db/repositories/replay/synthesized-keyframes.ts";
import { mulberry32, type Rng } from "../lib/domain/random.ts";
import { bulkyOutput } from "../lib/generator/scenarios.ts";
import { importTrajectories } from "../lib/services/import/import-trajectories.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import type { RecordingEvent, StepInput, TrajectoryInput } from "../lib/domain/trajectory.ts";
import type { DatabaseConfig } from "../lib/env.ts";

export const STEPS = 2000;
export const TARGET_OUTPUT_CHARS = 20 * 1024 * 1024;
export const IDS = { steps: "bench-replay-steps", recorded: "bench-replay-cast" } as const;

const PROMPT = "\u001b[1;32mroot@sandbox\u001b[0m:\u001b[1;34m/app\u001b[0m# ";
const COMMANDS = [
  "python -m pytest -v tests/",
  "pip install -r requirements.txt",
  "make -j4",
  "npm install",
  "cargo build 2>&1 | tail -40",
  "ls -la /app",
  "cat build.log",
];
const KINDS = ["pytest-pass", "pytest-fail", "pip", "make", "npm"] as const;

function output(rng: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) out += `${bulkyOutput(rng, KINDS[Math.floor(rng() * KINDS.length)]!, 20)}\n`;
  return out.slice(0, chars);
}

function steps(rng: Rng): StepInput[] {
  const perStep = TARGET_OUTPUT_CHARS / (STEPS - 1);
  const out: StepInput[] = [{ source: "user", offsetMs: 0, message: "Make the test-suite pass without changing the tests." }];
  let t = 0;
  for (let i = 1; i < STEPS; i++) {
    t += 4000 + Math.floor(rng() * 16_000);
    const cmd = `${COMMANDS[Math.floor(rng() * COMMANDS.length)]!} # ${i}`;
    const body = output(rng, Math.round(perStep * (0.4 + rng() * 1.2)));
    out.push({
      source: "agent",
      offsetMs: t,
      action: cmd,
      observation: `${PROMPT}${cmd}\r\n${body.replace(/\n/g, "\r\n")}`,
      exitCode: rng() < 0.1 ? 1 : 0,
    });
  }
  return out;
}

/** An asciicast of the same session: "step N" markers, typed commands, output in 8-line pieces. */
function recording(list: StepInput[], rng: Rng): RecordingEvent[] {
  const events: RecordingEvent[] = [[0, "o", PROMPT]];
  let t = 0.2;
  list.forEach((s, i) => {
    if (!s.action) return;
    t = Math.max(t, (s.offsetMs ?? 0) / 1000);
    events.push([+t.toFixed(3), "m", `step ${i}`]);
    for (const ch of s.action) events.push([+(t += 0.02 + rng() * 0.03).toFixed(3), "o", ch]);
    events.push([+(t += 0.05).toFixed(3), "o", "\r\n"]);
    const body = (s.observation ?? "").split("\r\n").slice(1);
    for (let j = 0; j < body.length; j += 8)
      events.push([+(t += 0.01 + rng() * 0.05).toFixed(3), "o", `${body.slice(j, j + 8).join("\r\n")}\r\n`]);
    events.push([+(t += 0.01).toFixed(3), "o", PROMPT]);
  });
  return events;
}

export function benchTrajectories(): TrajectoryInput[] {
  const rng = mulberry32(2026);
  const list = steps(rng);
  const base = {
    format: "reterm.trajectory.v1" as const,
    task: { benchmark: "reterm-bench", id: "replay-2000", name: "Replay benchmark (2,000 steps, 20 MB)" },
    run: { name: "bench-replay" },
    outcome: "failed" as const,
    reward: 0,
  };
  return [
    { ...base, id: IDS.steps, steps: list },
    {
      ...base,
      id: IDS.recorded,
      steps: list.map((s) => ({ ...s })),
      recording: { format: "asciicast-v2", width: 120, height: 32, events: recording(list, rng) },
    },
  ];
}

/** Creates bench/out/replay.db (unless it exists) and returns its config. */
export async function ensureReplayDb(outDir: string, log: (m: string) => void): Promise<DatabaseConfig> {
  const file = path.join(outDir, "replay.db");
  const config: DatabaseConfig = { provider: "sqlite", file, url: `file:${file}` };
  if (fs.existsSync(file)) {
    await setupDatabase(config); // migrations added since the file was built
    return config;
  }
  fs.mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  await setupDatabase(config);
  const db = createDb(config);
  try {
    const actor = await ensureUser(db, "bench", "admin");
    const records = benchTrajectories().map((t) => ({ ok: true as const, value: { trajectory: t, sourceFormat: "bench" }, file: "bench" }));
    const report = await importTrajectories({ db, actor }, records, { origin: "seed" });
    if (report.imported !== 2) throw new Error(`bench import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
  } finally {
    await db.$disconnect();
  }
  log(`built ${file} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return config;
}

/** Drop the stored replay layouts, so the next view of each trajectory lays it out as a first-ever view would. */
/** Forget stored layouts and synthesized keyframes: the next view is a first-ever one. */
export async function forgetReplayLayouts(config: DatabaseConfig): Promise<number> {
  const db = createDb(config);
  try {
    await deleteSynthesizedKeyframes(db);
    return await deleteReplayLayouts(db);
  } finally {
    await db.$disconnect();
  }
}

/** Wait until the synthesized session's keyframes are stored (built in the background after its first view). */
export async function waitForSynthesizedKeyframes(config: DatabaseConfig, timeoutMs: number): Promise<boolean> {
  const db = createDb(config);
  try {
    for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
      if (await db.synthesizedKeyframe.count({ where: { trajectoryId: IDS.steps, seq: 0 } })) return true;
    }
    return false;
  } finally {
    await db.$disconnect();
  }
}
