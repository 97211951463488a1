// The keyframe differential check in the real browser: a recording with what breaks naive keyframes (a status line
// outside a scroll region, alternate-screen editors and pagers, \r progress bars, wide characters, line drawing,
// then resizes) is imported, opened on the trajectory page, and sought to many points. At each point the page's
// terminal (xterm in Chromium, restored from the server's nearest keyframe plus the events after it) must show the
// same screen as (a) the same page replaying from the start (the player's own baseline) and (b) a headless xterm
// that played every event from the start in this test process, fed the events the server serves.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { countEventsUpTo, type ReplayChunk, type ReplayEvent } from "../lib/domain/replay/recording";
import { mulberry32 } from "../lib/domain/random";
import { Player } from "../lib/services/replay/headless/differential";
import { generateSession } from "../lib/services/replay/headless/session-corpus";
import type { TrajectoryInput } from "../lib/domain/trajectory";

const SEEKS = 30;

/** ~300 KB without resizes (so the server keeps several keyframes), then a part with resizes. */
function corpusTrajectory(): TrajectoryInput {
  const head = generateSession(31, { resizes: false, operations: 3000 });
  const tail = generateSession(32, { resizes: true, operations: 500 });
  const end = head.events.at(-1)![0];
  const events: ReplayEvent[] = [
    ...head.events,
    [end + 20, "r", `${tail.cols}x${tail.rows}`],
    ...tail.events.map(([t, c, d]): ReplayEvent => [end + 40 + t, c, d]),
  ];
  return {
    format: "reterm.trajectory.v1",
    id: "e2e-differential-1",
    task: { benchmark: "e2e", id: "differential" },
    run: { name: "e2e-differential" },
    outcome: "passed",
    steps: [
      { source: "user", offsetMs: 0, message: "Install the packages and open the editor" },
      { source: "agent", offsetMs: 100, action: "apt-get install -y vim && vim file.py", observation: "(see the recording)", exitCode: 0 },
    ],
    recording: {
      format: "asciicast-v2",
      width: head.cols,
      height: head.rows,
      events: events.map(([t, c, d]) => [t / 1000, c, d] as [number, "o" | "r", string]),
    },
  };
}

async function allEvents(request: APIRequestContext, id: string, durationMs: number): Promise<ReplayEvent[]> {
  const chunks: ReplayChunk[] = [];
  let from = 0;
  for (;;) {
    const res = await request.get(`/api/v1/trajectories/${id}/replay?fromMs=${from}&toMs=${durationMs}&keyframe=0`);
    expect(res.status()).toBe(200);
    const fresh = ((await res.json()) as { chunks: ReplayChunk[] }).chunks.filter((c) => c.seq >= chunks.length);
    chunks.push(...fresh);
    if (!fresh.length || fresh.at(-1)!.endMs >= durationMs) break;
    from = fresh.at(-1)!.endMs + 1;
  }
  return chunks.flatMap((c) => c.events);
}

/** The visible screen as text, the way the page's probe reads it (trailing blanks of each row dropped). */
function screenText(p: Player): string {
  const buf = p.term.buffer.active;
  return Array.from({ length: p.term.rows }, (_, y) => buf.getLine(buf.baseY + y)?.translateToString(true) ?? "").join("\n");
}
const trimRows = (s: string) =>
  s
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");

test("keyframe seeks in Chromium show the screen of a replay from the start (scroll regions, alt screen, wide chars, resizes)", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const t = corpusTrajectory();
  const imported = await request.post("/api/v1/trajectories", { data: t });
  expect(imported.status()).toBe(200);
  const id = ((await imported.json()) as { results: { id: string }[] }).results[0]!.id;

  const index = (await (await request.get(`/api/v1/trajectories/${id}/replay/index`)).json()).index as {
    durationMs: number;
    chunks: unknown[];
    source: string;
  };
  expect(index.source).toBe("recording");
  expect(index.chunks.length).toBeGreaterThan(4);
  const events = await allEvents(request, id, index.durationMs);
  const resizes = events.filter((e) => e[1] === "r").map((e) => e[0]);
  expect(resizes.length).toBeGreaterThan(3);

  // Points: seeded random times, and right at and after some resizes.
  const rng = mulberry32(13);
  const targets = [
    ...Array.from({ length: SEEKS - 6 }, () => Math.floor(rng() * index.durationMs)),
    ...resizes.slice(0, 3).flatMap((r) => [r, r + 15]),
  ].sort((a, b) => a - b);

  await page.goto(`/trajectories/${id}`);
  await page.waitForFunction(() => window.__retermPlayers?.main?.state().settled === true, null, { polling: 100, timeout: 60_000 });

  // Keyframe seeks first (the player fetches ranges from the nearest keyframe), then the player's baseline: the
  // whole recording in memory, replayed from the start for each point.
  const seekAndRead = (ms: number, fromStart: boolean) =>
    page.evaluate(
      async ([ms, fromStart]) => {
        const p = window.__retermPlayers!.main!;
        await (fromStart ? p.baseline.seekFromStart(ms) : p.seek(ms));
        const s = window.__retermTerminals!.main!.size();
        return { size: `${s.cols}x${s.rows}`, screen: window.__retermTerminals!.main!.screen() };
      },
      [ms, fromStart] as const,
    );
  const viaKeyframes: { size: string; screen: string }[] = [];
  for (const target of targets) viaKeyframes.push(await seekAndRead(target, false));
  await page.evaluate(() => window.__retermPlayers!.main!.baseline.preloadAll());
  const fromStart: { size: string; screen: string }[] = [];
  for (const target of targets) fromStart.push(await seekAndRead(target, true));

  const reference = new Player(t.recording!.width, t.recording!.height);
  let played = 0;
  let compared = 0;
  const mismatches: string[] = [];
  try {
    for (const [i, target] of targets.entries()) {
      const upTo = countEventsUpTo(events, target);
      await reference.play(events.slice(played, upTo));
      played = upTo;
      const want = { size: `${reference.term.cols}x${reference.term.rows}`, screen: trimRows(screenText(reference)) };
      compared++;
      for (const [what, got] of [
        ["keyframe seek", viaKeyframes[i]!],
        ["browser replay from the start", fromStart[i]!],
      ] as const) {
        if (got.size !== want.size || trimRows(got.screen) !== want.screen)
          mismatches.push(`${what} at ${target} ms: ${got.size} vs ${want.size}\n${got.screen}\n---\n${want.screen}`);
      }
    }
  } finally {
    reference.dispose();
  }
  console.log(`[differential/chromium] ${compared} seeks, ${compared * 2} browser screens compared with a headless replay from the start`);
  expect(mismatches.slice(0, 2)).toEqual([]);
  expect(compared).toBe(targets.length);
});
