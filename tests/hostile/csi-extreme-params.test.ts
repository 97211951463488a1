// Hostile input, CSI group: escape sequences with extreme parameters for every CSI command xterm implements, in
// recorded terminal output. Each case is imported, then its replay is opened and sought to the end — the server
// lays it out and builds keyframes (worker thread, under a budget) — while a health check on the same process is
// polled: it must answer within 1 s throughout, and every case must get an answer (a keyframe, or none when over
// budget), never a hang. Fixed seed; runs on SQLite and PostgreSQL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { importTrajectories, type ImportRecord } from "../../lib/services/import/import-trajectories.ts";
import { clearReplaySessions, getReplayManifest, getReplayRange } from "../../lib/services/replay/index.ts";
import { mulberry32 } from "../../lib/domain/random.ts";
import type { TrajectoryInput } from "../../lib/domain/trajectory.ts";

// Every CSI final xterm.js 6 registers (InputHandler), with the intermediates/prefixes it registers them under.
const CSI_COMMANDS = [
  ..."@ABCDEFGHIJKLMPSTXZ`abcdefghilmnpqrstux".split(""),
  " @",
  " A",
  " q",
  '"p',
  '"q',
  "$p",
  "$r",
  "$t",
  "$x",
  "$z",
  "${",
  "'}",
  "'~",
  "*x",
  "!p",
  "#P",
  "#Q",
  "?J",
  "?K",
  "?h",
  "?l",
  "?n",
  "?s",
  "?r",
  "?$p",
  ">c",
  ">m",
  ">q",
  "=c",
];
const EXTREMES = ["2147483647", "4294967295", "99999999999999999999", "65535", "9999"];

/** One hostile CSI sequence: prefix/intermediate placed where xterm expects them, parameters from the extremes. */
function sequence(rng: () => number, command: string): string {
  const prefix = "?>=".includes(command[0]!) && command.length === 2 ? command[0]! : "";
  const inter = !prefix && command.length === 2 ? command[0]! : "";
  const final = command.at(-1)!;
  const n = 1 + Math.floor(rng() * 3);
  const params = Array.from({ length: n }, () => EXTREMES[Math.floor(rng() * EXTREMES.length)]!).join(rng() < 0.2 ? ":" : ";");
  return `\u001b[${prefix}${params}${inter}${final}`;
}

/** Cases are grouped (a few commands per recording): each keyframe build starts a worker thread, which dominates. */
const GROUP = 4;
const GROUPS = Array.from({ length: Math.ceil(CSI_COMMANDS.length / GROUP) }, (_, g) => CSI_COMMANDS.slice(g * GROUP, (g + 1) * GROUP));

function hostileTrajectory(rng: () => number, commands: string[], i: number): TrajectoryInput {
  const events: [number, "o", string][] = [[0, "o", "$ start\r\n"]];
  // Enough output for several chunks and keyframes; the hostile sequences between ordinary lines, many times.
  for (let k = 0; k < 400; k++)
    events.push([1 + k * 5, "o", `line ${k} ${"x".repeat(300)}\r\n${sequence(rng, commands[k % commands.length]!)}`]);
  events.push([3000, "o", "$ done\r\n"]);
  return {
    format: "reterm.trajectory.v1",
    id: `hostile-csi-${i}`,
    task: { benchmark: "hostile", id: "csi" },
    run: { name: "hostile" },
    outcome: "failed",
    steps: [{ source: "agent", offsetMs: 0, action: `printf ${JSON.stringify(commands.join(" "))}`, observation: "…", exitCode: 0 }],
    recording: { format: "asciicast-v2", width: 80, height: 24, events },
  };
}

function records(ts: TrajectoryInput[]): ImportRecord[] {
  return ts.map((t) => ({ ok: true, value: { trajectory: t, sourceFormat: "native" }, file: "hostile" }));
}

/** A health endpoint on this process, and a poller that records the slowest answer while work runs. */
async function healthServer() {
  const server = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  return {
    async whileRunning<T>(work: Promise<T>): Promise<{ value: T; slowestMs: number; answers: number }> {
      let slowest = 0;
      let answers = 0;
      let done = false;
      const poll = (async () => {
        while (!done) {
          const t0 = performance.now();
          await fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.text());
          slowest = Math.max(slowest, performance.now() - t0);
          answers++;
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      let value: T;
      try {
        value = await work;
      } finally {
        done = true;
        await poll;
      }
      // Read after the poller stopped: a case can finish before its first health answer arrives.
      return { value, slowestMs: slowest, answers };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(PROVIDERS)("hostile CSI parameters on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let health: Awaited<ReturnType<typeof healthServer>>;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    health = await healthServer();
    const rng = mulberry32(16);
    const trajectories = GROUPS.map((g, i) => hostileTrajectory(rng, g, i));
    // A harmless recording, replayed first: the process is warm (database client, keyframe thread) before the
    // health check is measured, so a cold start is not mistaken for a stall caused by hostile input.
    const plain = hostileTrajectory(rng, ["m"], GROUPS.length);
    const report = await importTrajectories(t.ctx, records([...trajectories, plain]), { origin: "seed" });
    expect(report.failed).toBe(0);
    GROUPS.forEach((g, i) => ids.set(g.join(" "), report.trajectoryIds[i]!));
    const warm = report.trajectoryIds[GROUPS.length]!;
    const m = await getReplayManifest(t.ctx, warm);
    await getReplayRange(t.ctx, warm, { fromMs: m.index.durationMs, keyframe: "1" });
  }, 120_000);

  afterAll(async () => {
    clearReplaySessions();
    await health?.close();
    await t?.drop();
  });

  it.skipIf(skip).each(GROUPS.map((g) => g.join(" ")))(
    "CSI %s with extreme parameters: replayed to the end, health check under 1 s",
    async (group) => {
      const id = ids.get(group)!;
      const { value, slowestMs, answers } = await health.whileRunning(
        (async () => {
          const manifest = await getReplayManifest(t.ctx, id);
          const end = manifest.index.durationMs;
          // A deep seek needs the keyframes: this waits for the whole build (or its budget).
          return getReplayRange(t.ctx, id, { fromMs: end, keyframe: "1" });
        })(),
      );
      expect(answers).toBeGreaterThan(0);
      expect(slowestMs).toBeLessThan(1000);
      expect(value.chunks.length).toBeGreaterThan(0);
      // Either a keyframe near the end, or (over budget) the whole recording from its start: a clear answer.
      if (value.keyframe) expect(value.chunks[0]!.seq).toBeGreaterThan(0);
      else expect(value.chunks[0]!.seq).toBe(0);
    },
    60_000,
  );
});
