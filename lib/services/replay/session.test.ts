import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../../tests/helpers/test-db.ts";
import { importTrajectories, type ImportRecord } from "../import/import-trajectories.ts";
import {
  clearReplaySessions,
  getReplayManifest,
  getReplayRange,
  replayKeyframesReady,
  replayRangeQuerySchema,
  setKeyframeBuilder,
  stopReplayWork,
} from "./session.ts";
import {
  getOpeningPoster,
  getReplayScreen,
  MAX_POSTER_CHUNKS,
  POSTER_WAIT_BOUNDED_MS,
  POSTER_WAIT_MS,
  replayScreenQuerySchema,
} from "./poster.ts";
import { Player } from "./headless/differential.ts";
import { screenPoster } from "./headless/poster.ts";
import type { KeyframeBuilder } from "./headless/keyframe-builder.ts";
import { buildKeyframesOffThread } from "./headless/keyframe-builder.ts";
import { createHeadlessEmulator } from "./headless/emulator.ts";
import { feedEvents } from "../../domain/replay/keyframes.ts";
import { countEventsUpTo, type ReplayChunk, type ReplayEvent } from "../../domain/replay/recording.ts";
import { TerminalSanitizer } from "../../domain/replay/sanitize.ts";
import { SessionClock } from "../../domain/replay/synthesize.ts";
import { mulberry32 } from "../../domain/random.ts";
import type { StepInput, TrajectoryInput } from "../../domain/trajectory.ts";

/** A steps-only trajectory with ~1.5 MB of coloured output, so the session has several keyframes. */
function bulky(): TrajectoryInput {
  const rng = mulberry32(3);
  const steps: StepInput[] = [{ source: "user", offsetMs: 0, message: "Build the thing" }];
  for (let i = 1; i <= 60; i++) {
    const lines = Array.from({ length: 300 }, (_, k) => `\u001b[3${k % 7}mline ${i}.${k}\u001b[0m ${"x".repeat(Math.floor(rng() * 60))}`);
    steps.push({
      source: "agent",
      offsetMs: i * 4000,
      action: `make step-${i}`,
      observation: lines.join("\n"),
      exitCode: i % 9 === 0 ? 2 : 0,
    });
  }
  return {
    format: "reterm.trajectory.v1",
    id: "bulky-1",
    task: { benchmark: "t", id: "bulky" },
    run: { name: "r" },
    outcome: "failed",
    steps,
  };
}

/** A trajectory with a real recording: "step N" markers, ~430 KB of output (several keyframes) (several chunks), a resize. */
function withRecording(): TrajectoryInput {
  const steps: StepInput[] = [{ source: "user", offsetMs: 0, message: "Check the logs" }];
  const events: [number, "o" | "m" | "r", string][] = [[0, "o", "$ "]];
  for (let i = 1; i <= 6; i++) {
    const t = i * 7;
    steps.push({ source: "agent", offsetMs: t * 1000, action: `cat log-${i}`, observation: "…", exitCode: 0 });
    events.push([t, "m", `step ${i}`], [t + 0.1, "o", `cat log-${i}\r\n`]);
    for (let k = 0; k < 90; k++) events.push([t + 0.2 + k / 250, "o", `${"log ".repeat(200)}${i}.${k}\r\n`]);
    if (i === 4) events.push([t + 0.9, "r", "100x30"]);
    events.push([t + 1, "o", "$ "]);
  }
  return {
    format: "reterm.trajectory.v1",
    id: "recorded-1",
    task: { benchmark: "t", id: "rec" },
    run: { name: "r" },
    outcome: "passed",
    steps,
    recording: { format: "asciicast-v2", width: 120, height: 32, events },
  };
}

function records(ts: TrajectoryInput[]): ImportRecord[] {
  return ts.map((t) => ({ ok: true, value: { trajectory: t, sourceFormat: "native" }, file: "test" }));
}

/** Screen of a fresh terminal after `write` — what the browser would show. */
async function screenAfter(
  cols: number,
  rows: number,
  write: (term: ReturnType<typeof createHeadlessEmulator>, san: TerminalSanitizer) => Promise<void>,
) {
  const term = createHeadlessEmulator(cols, rows);
  const san = new TerminalSanitizer();
  await write(term, san);
  const s = term.serialize(0);
  term.dispose();
  return s;
}

async function allChunks(t: TestDatabase, id: string, durationMs: number): Promise<ReplayChunk[]> {
  const out: ReplayChunk[] = [];
  let from = 0;
  for (;;) {
    const r = await getReplayRange(t.ctx, id, { fromMs: from, toMs: durationMs, keyframe: "0" });
    const fresh = r.chunks.filter((c) => c.seq >= out.length);
    out.push(...fresh);
    const last = out.at(-1);
    if (!fresh.length || !last || (last.seq >= 0 && r.chunks.at(-1)!.endMs >= durationMs)) break;
    from = last.endMs + 1;
  }
  return out;
}

describe.each(PROVIDERS)("replay sessions on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let bulkyId: string;
  let recordedId: string;
  let recorded: TrajectoryInput;

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    clearReplaySessions();
    recorded = withRecording();
    const report = await importTrajectories(t.ctx, records([bulky(), recorded]), { origin: "seed" });
    [bulkyId, recordedId] = report.trajectoryIds as [string, string];
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("synthesizes a session from steps: one timing per step, chunks that hold exactly the synthesized events", async () => {
    const m = await getReplayManifest(t.ctx, bulkyId);
    expect(m.index).toMatchObject({ source: "synthesized", cols: 120, rows: 32, stepTimingSource: "synthesized" });
    expect(m.index.steps).toHaveLength(61);
    expect(m.steps[1]).toMatchObject({ index: 1, command: "make step-1", exitCode: 0 });
    expect(m.index.chunks.length).toBeGreaterThan(10);
    const clock = new SessionClock();
    const expected: ReplayEvent[] = bulky().steps.flatMap(
      (s, index) =>
        clock.place({
          index,
          source: s.source,
          action: s.action ?? null,
          observation: s.observation ?? null,
          message: s.message ?? null,
          offsetMs: s.offsetMs ?? null,
        }).events,
    );
    const chunks = await allChunks(t, bulkyId, m.index.durationMs);
    expect(chunks.map((c) => c.seq)).toEqual(m.index.chunks.map((c) => c.seq));
    expect(chunks.flatMap((c) => c.events)).toEqual(expected);
    expect(m.index.durationMs).toBe(expected.at(-1)![0]);
  });

  it.skipIf(skip)("a seek via the nearest keyframe shows the same screen as replaying from the start", async () => {
    const m = await getReplayManifest(t.ctx, bulkyId);
    const chunks = await allChunks(t, bulkyId, m.index.durationMs);
    const { cols, rows } = m.index;
    for (const target of [m.index.steps[20]!.endMs, m.index.steps[47]!.endMs + 5, m.index.durationMs]) {
      const range = await getReplayRange(t.ctx, bulkyId, { fromMs: target, keyframe: "1" });
      expect(range.keyframe).not.toBeNull();
      expect(range.chunks[0]!.seq).toBe(range.keyframe!.seq);
      const viaKeyframe = await screenAfter(cols, rows, async (term, san) => {
        await term.write(range.keyframe!.data);
        san.restore(range.keyframe!.sanitizer);
        for (const c of range.chunks)
          await feedEvents(term, { sanitizer: san, cols, rows }, c.events.slice(0, countEventsUpTo(c.events, target)));
      });
      const fromStart = await screenAfter(cols, rows, async (term, san) => {
        for (const c of chunks)
          await feedEvents(term, { sanitizer: san, cols, rows }, c.events.slice(0, countEventsUpTo(c.events, target)));
      });
      expect(viaKeyframe).toBe(fromStart);
      expect(viaKeyframe).toContain("line");
    }
  });

  it.skipIf(skip)("replays a stored recording, with step times from its markers and keyframes stored once", async () => {
    const m = await getReplayManifest(t.ctx, recordedId);
    expect(m.index).toMatchObject({ source: "recording", format: "asciicast-v2", cols: 120, rows: 32, stepTimingSource: "markers" });
    expect(m.index.steps.map((s) => s.startMs)).toEqual([0, 7000, 14000, 21000, 28000, 35000, 42000]);
    expect(m.index.steps[6]!.endMs).toBe(m.index.durationMs);
    expect(m.index.gaps.length).toBeGreaterThanOrEqual(6);
    expect(m.index.chunks.length).toBeGreaterThan(2);
    const far = m.index.chunks.at(-1)!.startMs;
    const range = await getReplayRange(t.ctx, recordedId, { fromMs: far, keyframe: "1" });
    expect(range.chunks.at(-1)!.startMs).toBe(far);
    const stored = await t.db.recordingChunk.findMany({
      where: { recording: { trajectoryId: recordedId }, keyframe: { not: null } },
      select: { seq: true },
    });
    expect(stored.map((c) => c.seq)).toContain(0);
    // No keyframe after the resize at step 4 (28.9 s; xterm's reflow depends on history a keyframe lacks): a seek
    // past it starts at the last keyframe before it, at 120 columns, and replays the resize.
    const late = await getReplayRange(t.ctx, recordedId, { fromMs: m.index.durationMs, keyframe: "1" });
    expect(late.keyframe).toMatchObject({ cols: 120, rows: 32 });
    expect(late.chunks[0]!.startMs).toBeLessThan(28_900);
    expect(late.chunks.flatMap((c) => c.events).some((e) => e[1] === "r" && e[2] === "100x30")).toBe(true);
  });

  it.skipIf(skip)("serves the first chunk without a keyframe and rejects unknown trajectories", async () => {
    const r = await getReplayRange(t.ctx, bulkyId, { fromMs: 0, keyframe: "1" });
    expect(r.keyframe).toBeNull();
    expect(r.chunks[0]!.seq).toBe(0);
    await expect(getReplayManifest(t.ctx, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe.each(PROVIDERS)("stored replay layouts on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let ids: string[];
  const layoutRow = (id: string) => t.db.replayLayout.findUnique({ where: { trajectoryId: id } });

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    clearReplaySessions();
    ids = (await importTrajectories(t.ctx, records([bulky(), withRecording()]), { origin: "seed" })).trajectoryIds;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("stores the layout on first view and serves later opens (after a restart) from it", async () => {
    for (const id of ids) {
      expect(await layoutRow(id)).toBeNull(); // under the import's warm-up threshold
      const first = await getReplayManifest(t.ctx, id);
      await vi.waitFor(async () => expect(await layoutRow(id)).not.toBeNull());
      const row = (await layoutRow(id))!;
      expect(JSON.parse(row.data).index).toEqual(first.index);

      // Proof that a reopen reads the stored layout instead of passing over the output: a marker gap put into the
      // stored copy comes back in the manifest.
      const data = JSON.parse(row.data);
      data.index.gaps = [[1, 4321]];
      await t.db.replayLayout.update({ where: { trajectoryId: id }, data: { data: JSON.stringify(data) } });
      clearReplaySessions();
      expect((await getReplayManifest(t.ctx, id)).index.gaps).toEqual([[1, 4321]]);
    }
  });

  it.skipIf(skip)("recomputes a layout that is damaged, of another version, or does not fit the trajectory", async () => {
    const id = ids[1]!;
    clearReplaySessions();
    await t.db.replayLayout.deleteMany({ where: { trajectoryId: id } });
    const truth = (await getReplayManifest(t.ctx, id)).index;
    await vi.waitFor(async () => expect(await layoutRow(id)).not.toBeNull());
    const good = (await layoutRow(id))!.data;
    const wrongSteps = JSON.parse(good);
    wrongSteps.index.steps = wrongSteps.index.steps.slice(1);
    for (const bad of [
      { data: "{not json" },
      { version: 0 },
      { data: JSON.stringify({ kind: "recording", index: {} }) },
      { data: JSON.stringify(wrongSteps) },
    ]) {
      await t.db.replayLayout.update({ where: { trajectoryId: id }, data: { version: 1, data: good, ...bad } });
      clearReplaySessions();
      expect((await getReplayManifest(t.ctx, id)).index).toEqual(truth);
      await vi.waitFor(async () => expect((await layoutRow(id))!.data).toBe(good));
    }
  });

  it.skipIf(skip)("lays out the replay of a very large trajectory in the import's last phase, after its rows are written", async () => {
    const big = bulky();
    big.id = "bulky-big";
    big.steps = big.steps.map((s, i) => (i === 0 ? s : { ...s, observation: `${s.observation}\n${"y".repeat(60_000)}` }));
    const report = await importTrajectories(t.ctx, records([big]), { origin: "seed" });
    const [id] = report.trajectoryIds;
    // settleImport (lib/services/import-integrity) calls lib/services/replay once the rows are in.
    const row = await layoutRow(id!);
    expect(row).not.toBeNull();
    clearReplaySessions();
    expect(JSON.parse(row!.data).index).toEqual((await getReplayManifest(t.ctx, id!)).index);
  });
});

describe.each(PROVIDERS)("stored keyframes of synthesized sessions on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let id: string;
  let builds = 0;
  const rows = () =>
    t.db.synthesizedKeyframe.findMany({ where: { trajectoryId: id }, orderBy: { seq: "asc" }, select: { seq: true, layoutKey: true } });
  const counting: KeyframeBuilder = (...args) => {
    builds++;
    return buildKeyframesOffThread(...args);
  };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    setKeyframeBuilder(counting);
    [id] = (await importTrajectories(t.ctx, records([bulky()]), { origin: "seed" })).trajectoryIds as [string];
  });
  afterAll(async () => {
    setKeyframeBuilder(buildKeyframesOffThread);
    await t?.drop();
  });

  it.skipIf(skip)("stores them on the first seek and serves seeks after a restart from the table, without building again", async () => {
    const m = await getReplayManifest(t.ctx, id);
    const target = m.index.steps[47]!.endMs;
    const first = await getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" });
    expect(first.keyframe).not.toBeNull();
    const stored = await rows();
    expect(stored.map((r) => r.seq)).toContain(0);
    expect(stored.length).toBeGreaterThan(3);
    expect(new Set(stored.map((r) => r.layoutKey)).size).toBe(1);
    expect(builds).toBe(1);
    // A restart: no session in memory, only the stored layout and keyframes.
    await stopReplayWork();
    await vi.waitFor(async () => expect(await t.db.replayLayout.findUnique({ where: { trajectoryId: id } })).not.toBeNull());
    clearReplaySessions();
    const again = await getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" });
    expect(again).toEqual(first);
    expect(builds).toBe(1);
  });

  it.skipIf(skip)("rebuilds keyframes of another layout or version, and rejects a damaged one", async () => {
    const m = await getReplayManifest(t.ctx, id);
    const target = m.index.durationMs;
    const truth = await getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" });
    // Rows of another layout (the steps were laid out differently) are not used: rebuilt and replaced.
    await t.db.synthesizedKeyframe.updateMany({ where: { trajectoryId: id }, data: { layoutKey: "old-layout" } });
    clearReplaySessions();
    const before = builds;
    expect(await getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" })).toEqual(truth);
    expect(builds).toBe(before + 1);
    expect((await rows()).every((r) => r.layoutKey !== "old-layout")).toBe(true);
    // Keyframes of an older KEYFRAME_VERSION: rebuilt too.
    const zero = await t.db.synthesizedKeyframe.findFirstOrThrow({ where: { trajectoryId: id, seq: 0 } });
    await t.db.synthesizedKeyframe.update({
      where: { trajectoryId_seq: { trajectoryId: id, seq: 0 } },
      data: { keyframe: JSON.stringify({ ...JSON.parse(zero.keyframe), version: 1 }) },
    });
    clearReplaySessions();
    expect(await getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" })).toEqual(truth);
    expect(builds).toBe(before + 2);
    // A damaged row is an error naming the trajectory and chunk, not a wrong screen.
    const seq = truth.keyframe!.seq;
    await t.db.synthesizedKeyframe.update({ where: { trajectoryId_seq: { trajectoryId: id, seq } }, data: { keyframe: "{broken" } });
    clearReplaySessions();
    await expect(getReplayRange(t.ctx, id, { fromMs: target, keyframe: "1" })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringContaining(`${id} chunk ${seq}`),
    });
  });

  it.skipIf(skip)("deletes them with the trajectory", async () => {
    expect((await rows()).length).toBeGreaterThan(0);
    await t.db.trajectory.delete({ where: { id } });
    expect(await t.db.synthesizedKeyframe.count()).toBe(0);
  });
});

describe.each(PROVIDERS)("background replay work on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let id: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    [id] = (await importTrajectories(t.ctx, records([bulky()]), { origin: "seed" })).trajectoryIds as [string];
  });
  afterAll(async () => {
    setKeyframeBuilder(buildKeyframesOffThread);
    vi.restoreAllMocks();
    await t?.drop();
  });

  it.skipIf(skip)("stopReplayWork cancels a scheduled keyframe build and stops a running one, quietly", async () => {
    const errors = vi.spyOn(console, "error");
    await getReplayManifest(t.ctx, id); // schedules a background build
    await stopReplayWork();
    await new Promise((r) => setTimeout(r, 2000)); // past BACKGROUND_DELAY_MS: the build must not start
    expect(await t.db.synthesizedKeyframe.count({ where: { trajectoryId: id } })).toBe(0);
    // A build that is running: it stops at its next chunk and stores nothing.
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    setKeyframeBuilder(async (chunks, size) => {
      started();
      await new Promise((r) => setTimeout(r, 300));
      return buildKeyframesOffThread(chunks, size);
    });
    const m = await getReplayManifest(t.ctx, id);
    const seek = getReplayRange(t.ctx, id, { fromMs: m.index.durationMs, keyframe: "1" }).then(
      () => "served",
      (e: Error) => e.message,
    );
    await running;
    await stopReplayWork();
    expect(await seek).toBe("replay work stopped");
    expect(await t.db.synthesizedKeyframe.count({ where: { trajectoryId: id } })).toBe(0);
    expect(errors.mock.calls.filter((c) => String(c[0]).startsWith("[replay]"))).toEqual([]);
  });

  it.skipIf(skip)("still logs a background build that really fails", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    setKeyframeBuilder(async () => {
      throw new Error("emulator exploded");
    });
    await getReplayManifest(t.ctx, id);
    await vi.waitFor(
      () =>
        expect(
          errors.mock.calls.some(
            (c) => String(c[0]).includes("[replay] keyframes for synthesized") && String(c[1]).includes("emulator exploded"),
          ),
        ).toBe(true),
      { timeout: 5000 },
    );
  });
});

describe.each(PROVIDERS)("opening posters on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let id: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    [id] = (await importTrajectories(t.ctx, records([withRecording()]), { origin: "seed" })).trajectoryIds as [string];
  });
  afterAll(async () => {
    setKeyframeBuilder(buildKeyframesOffThread);
    await t?.drop();
  });

  it.skipIf(skip)("waits briefly for a deep link's poster while keyframes build, and serves it once they are ready", async () => {
    expect(POSTER_WAIT_BOUNDED_MS).toBeGreaterThan(POSTER_WAIT_MS);
    // A build slower than the short wait: the page must not be held for it.
    setKeyframeBuilder(async (chunks, size) => {
      await new Promise((r) => setTimeout(r, POSTER_WAIT_MS + 1500));
      return buildKeyframesOffThread(chunks, size);
    });
    const { index } = await getReplayManifest(t.ctx, id, { withSteps: false });
    const deep = Math.floor(index.durationMs * 0.9);
    expect(
      index.chunks.findLastIndex((c) => c.startMs <= deep),
      "the deep point is past the first chunk",
    ).toBeGreaterThan(0);
    expect(await replayKeyframesReady(t.ctx, id)).toBe(false);
    const t0 = performance.now();
    expect(await getOpeningPoster(t.ctx, index, deep), "no poster while the keyframes are building").toBeNull();
    expect(performance.now() - t0).toBeLessThan(POSTER_WAIT_MS + 1000);
    // The seek that needs them waits for the build; afterwards the poster is bounded work and is served.
    expect((await getReplayRange(t.ctx, id, { fromMs: deep, toMs: deep, keyframe: "1" })).chunks.length).toBeGreaterThan(0);
    expect(await replayKeyframesReady(t.ctx, id)).toBe(true);
    const poster = await getOpeningPoster(t.ctx, index, deep);
    expect(poster?.rows).toBeGreaterThan(0);
    expect(
      poster!.lines
        .flat()
        .map((run) => run[0])
        .join(""),
    ).toContain("log");
  });
});

describe.each(PROVIDERS)("the exact screen at a time (GET …/replay/screen) on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let ids: string[];
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    clearReplaySessions();
    ids = (await importTrajectories(t.ctx, records([bulky(), withRecording(), resizedEarly()]), { origin: "seed" })).trajectoryIds;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** A recording that resizes at once and then prints ~700 KB: no keyframe after the resize, so late seeks replay ~10 chunks. */
  function resizedEarly(): TrajectoryInput {
    const events: [number, "o" | "r", string][] = [
      [0, "o", "$ "],
      [0.1, "r", "100x30"],
    ];
    for (let k = 0; k < 700; k++)
      events.push([0.2 + k / 100, "o", `\u001b[3${k % 7}m${String(k).padStart(4, "0")}\u001b[0m ${"y".repeat(990)}\r\n`]);
    return {
      format: "reterm.trajectory.v1",
      id: "resized-1",
      task: { benchmark: "t", id: "resized" },
      run: { name: "r" },
      outcome: "passed",
      steps: [{ source: "user", offsetMs: 0, message: "go" }],
      recording: { format: "asciicast-v2", width: 120, height: 32, events },
    };
  }

  it.skipIf(skip)("equals a replay from the start at random times; left to the browser when the keyframe is too far back", async () => {
    let compared = 0;
    let left = 0;
    for (const id of ids) {
      const { index } = await getReplayManifest(t.ctx, id, { withSteps: false });
      // The seek that needs the keyframes waits for their build; from then on a screen is bounded work.
      await getReplayRange(t.ctx, id, { fromMs: index.durationMs, keyframe: "1" });
      const events = (await allChunks(t, id, index.durationMs)).flatMap((c) => c.events);
      const rng = mulberry32(id.length + 7);
      const times = [
        0,
        1,
        index.durationMs,
        ...Array.from({ length: 16 }, () => Math.floor(rng() * index.durationMs)),
        ...events.filter((_, i) => i % 97 === 0).map((e) => e[0]),
      ];
      for (const atMs of times) {
        const { atMs: at, screen } = await getReplayScreen(t.ctx, id, { atMs });
        expect(at).toBe(atMs);
        // Null exactly when the seek would replay more than MAX_POSTER_CHUNKS chunks (here: past the recording's resize).
        const range = await getReplayRange(t.ctx, id, { fromMs: atMs, keyframe: "1" });
        const replayed = range.chunks.length;
        expect(screen === null, `${id} at ${atMs} ms: ${replayed} chunks to replay`).toBe(replayed > MAX_POSTER_CHUNKS);
        if (!screen) {
          left++;
          continue;
        }
        const reference = new Player(index.cols, index.rows);
        await reference.play(events.filter((e) => e[0] <= atMs));
        expect(screen, `${id} at ${atMs} ms`).toEqual(screenPoster(reference.term));
        reference.dispose();
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(left).toBeGreaterThan(0);
    // A time past the end is the end; input is validated.
    const { index } = await getReplayManifest(t.ctx, ids[0]!, { withSteps: false });
    expect((await getReplayScreen(t.ctx, ids[0]!, { atMs: index.durationMs + 10_000 })).atMs).toBe(index.durationMs);
    expect(() => replayScreenQuerySchema.parse({ atMs: "-1" })).toThrow();
    expect(replayScreenQuerySchema.parse({ atMs: "1500" })).toEqual({ atMs: 1500 });
  });
});

describe.each(PROVIDERS)("keyframes over budget on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    setKeyframeBuilder(buildKeyframesOffThread);
    await t?.drop();
  });

  it.skipIf(skip)("marks a session whose emulation runs over budget and replays it from the start, without hanging", async () => {
    // A budget no build can meet: the worker thread is stopped, the layout records why, seeks start at chunk 0.
    setKeyframeBuilder((chunks, size) => buildKeyframesOffThread(chunks, size, { timeMs: 1, chars: Number.MAX_SAFE_INTEGER }));
    const [id] = (await importTrajectories(t.ctx, records([bulky()]), { origin: "seed" })).trajectoryIds;
    const manifest = await getReplayManifest(t.ctx, id!);
    const far = manifest.index.chunks.at(-1)!.startMs;
    const started = Date.now();
    const range = await getReplayRange(t.ctx, id!, { fromMs: far, keyframe: "1" });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(range.keyframe).toBeNull();
    expect(range.chunks[0]!.seq).toBe(0);
    const row = await t.db.replayLayout.findUnique({ where: { trajectoryId: id! } });
    expect(JSON.parse(row!.data).keyframesOverBudget).toMatch(/longer than 1 ms/);
    // Its poster would replay from chunk 0: past MAX_POSTER_CHUNKS it is left out, and the page must not wait for it.
    expect(await replayKeyframesReady(t.ctx, id!)).toBe(false);
    // After a restart the mark is read back: no second attempt, still no keyframe.
    clearReplaySessions();
    expect((await getReplayRange(t.ctx, id!, { fromMs: far, keyframe: "1" })).keyframe).toBeNull();
  });
});

describe("replay range query", () => {
  it("accepts numbers and rejects bad ranges", () => {
    expect(replayRangeQuerySchema.parse({ fromMs: "10", toMs: "20" })).toEqual({ fromMs: 10, toMs: 20, keyframe: "1" });
    expect(replayRangeQuerySchema.safeParse({ fromMs: "-1" }).success).toBe(false);
    expect(replayRangeQuerySchema.safeParse({ fromMs: "abc" }).success).toBe(false);
    expect(replayRangeQuerySchema.safeParse({ fromMs: "20", toMs: "10" }).success).toBe(false);
    expect(replayRangeQuerySchema.safeParse({}).success).toBe(false);
  });
});
