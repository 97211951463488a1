// Full-text search on SQLite (FTS5) and PostgreSQL (tsvector): same results on both, ANSI escapes ignored,
// snippets around the match, the index kept up to date and rebuildable. Expectations come from the generated data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { ensureSearchIndex, rebuildSearchIndex, searchSteps } from "../../lib/services/browse/search-trajectories.ts";
import {
  indexMissingAfter,
  indexMissingTrajectories,
  indexStepsForSearch,
  removeFromSearchIndex,
  searchIndexLag,
  type IndexCursor,
} from "../../lib/db/repositories/search/index.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";
import { stripAnsi } from "../../lib/domain/ansi.ts";
import type { StepInput, TrajectoryInput } from "../../lib/domain/trajectory.ts";

const SEED = { count: 70, seed: 5 };
const generated = [...generateTrajectories(SEED)];
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);
const stepText = (s: StepInput) => stripAnsi([s.action, s.observation, s.reasoning, s.message].filter(Boolean).join("\n"));
const matching = (re: RegExp) => generated.filter((g) => g.steps.some((s) => re.test(stepText(s))));

// Escape codes inside words: only an ANSI-aware index finds "ModuleNotFound" or "Segmentation fault" here.
const ANSI_TRAJECTORY: TrajectoryInput = {
  format: "reterm.trajectory.v1",
  id: "ansi-case",
  task: { benchmark: "tests", id: "ansi", name: "ANSI case" },
  run: { name: "ansi-run" },
  outcome: "failed",
  steps: [
    {
      source: "agent",
      action: "./server --selftest",
      observation: "\u001b[1;31mSegmen\u001b[0mtation \u001b[31mfault\u001b[0m (core dumped)\r\nzebra\u001b]0;title-xyzzy\u0007",
      exitCode: 139,
    },
    { source: "agent", action: "python3 app.py", observation: "Modu\u001b[1mleNotFoun\u001b[0mdError: No module named 'quux'" },
  ],
};

describe.each(PROVIDERS)("full-text search on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let ids: Map<string, string>;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, SEED);
    await importTrajectories(t.ctx, [{ ok: true, value: { trajectory: ANSI_TRAJECTORY, sourceFormat: "native" }, file: "ansi.jsonl" }], {
      origin: "seed",
    });
    ids = new Map((await t.db.trajectory.findMany({ select: { id: true, externalId: true } })).map((r) => [r.externalId!, r.id]));
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("indexes trajectories missing from the index on the next search", async () => {
    expect(await ensureSearchIndex(t.ctx)).toBe(0);
    expect(await searchIndexLag(t.db)).toBe(0);
    await removeFromSearchIndex(t.db, ids.get("ansi-case")!);
    expect(await searchIndexLag(t.db)).toBe(1);
    // Every search checks the index (no per-process window), so the very next one catches the trajectory up.
    expect((await searchSteps(t.ctx, { q: "zebra", limit: 5 })).hits.map((h) => h.trajectoryId)).toEqual([ids.get("ansi-case")]);
    expect(await searchIndexLag(t.db)).toBe(0);
    expect(await indexMissingTrajectories(t.db, 10)).toBe(0);
  });

  it.skipIf(skip)("narrows the table to trajectories with a matching step, combined with filters", async () => {
    const want = matching(/\bModuleNotFoundError\b/i);
    expect(want.length).toBeGreaterThan(0);
    const page = await listTrajectories(t.ctx, q({ q: "ModuleNotFoundError", perPage: 100 }));
    expect(new Set(page.rows.map((r) => r.id))).toEqual(new Set([...want.map((g) => ids.get(g.id!)), ids.get("ansi-case")]));
    const failedOnly = await listTrajectories(t.ctx, q({ q: "ModuleNotFoundError", outcome: "passed", perPage: 100 }));
    expect(failedOnly.total).toBe(want.filter((g) => g.outcome === "passed").length);
    // Every row shows its first matching step with the word marked.
    for (const r of page.rows) {
      expect(r.match?.parts.filter((p) => p.hit).map((p) => p.text.toLowerCase())).toContain("modulenotfounderror");
    }
  });

  it.skipIf(skip)("matches phrases in order and prefixes", async () => {
    const phrase = matching(/\bno module named\b/i);
    expect((await listTrajectories(t.ctx, q({ q: '"No module named"' }))).total).toBe(phrase.length + 1);
    const reversed = matching(/\bnamed module no\b/i);
    expect((await listTrajectories(t.ctx, q({ q: '"named module no"' }))).total).toBe(reversed.length);
    expect((await listTrajectories(t.ctx, q({ q: "segment*" }))).total).toBe(matching(/\bsegment/i).length + 1);
    expect((await listTrajectories(t.ctx, q({ q: "segment" }))).total).toBe(matching(/\bsegment\b/i).length);
    // A path is searched as the phrase of its parts.
    expect((await listTrajectories(t.ctx, q({ q: "tests/test_outputs.py" }))).total).toBe(matching(/tests\/test_outputs\.py/).length);
  });

  it.skipIf(skip)("ignores ANSI escape codes in the indexed text and in snippets", async () => {
    const seg = await searchSteps(t.ctx, { q: "segmentation fault", limit: 10 });
    expect(seg.hits.map((h) => h.trajectoryId)).toContain(ids.get("ansi-case"));
    const hit = seg.hits.find((h) => h.trajectoryId === ids.get("ansi-case"))!;
    expect(hit.match.stepIndex).toBe(0);
    expect(hit.match.parts.map((p) => p.text).join("")).not.toMatch(/\u001b|\[1;31m/);
    expect(hit.match.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(["Segmentation", "fault"]);
    const phrase = (await searchSteps(t.ctx, { q: '"segmentation fault"', limit: 10 })).hits.find(
      (h) => h.trajectoryId === ids.get("ansi-case"),
    )!;
    expect(phrase.match.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(["Segmentation fault"]);
    // "Modu<ESC>[1mleNotFoun<ESC>[0mdError" is one word once escapes are removed.
    expect((await searchSteps(t.ctx, { q: "ModuleNotFoundError quux", limit: 10 })).hits.map((h) => h.trajectoryId)).toEqual([
      ids.get("ansi-case"),
    ]);
    expect((await searchSteps(t.ctx, { q: "leNotFoun", limit: 10 })).hits).toEqual([]);
    // Escape sequence bodies are not text: "31m" or the OSC title never match.
    expect((await listTrajectories(t.ctx, q({ q: "31m" }))).total).toBe(0);
    expect((await listTrajectories(t.ctx, q({ q: "xyzzy" }))).total).toBe(0);
    expect((await listTrajectories(t.ctx, q({ q: "zebra" }))).total).toBe(1);
  });

  it.skipIf(skip)("lists every matching step exactly once across search pages, newest first, with links to the step", async () => {
    const want = generated.flatMap((g) => g.steps.flatMap((s, i) => (/\bpip\b/i.test(stepText(s)) ? [`${ids.get(g.id!)}#${i}`] : [])));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchSteps(t.ctx, { q: "pip", limit: 7, cursor });
      for (const h of page.hits) {
        seen.push(`${h.trajectoryId}#${h.match.stepIndex}`);
        expect(h.href).toBe(`/trajectories/${h.trajectoryId}?step=${h.match.stepIndex}#step-${h.match.stepIndex}`);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(want.sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it.skipIf(skip)("says when a query has nothing searchable", async () => {
    expect(await searchSteps(t.ctx, { q: "!!! ---", limit: 5 })).toMatchObject({ hits: [], searchable: false });
    const r = await listTrajectories(t.ctx, q({ q: "!!!" }));
    expect(r).toMatchObject({ total: 0, rows: [], search: { searchable: false } });
  });

  it.skipIf(skip)("indexes idempotently and rebuilds without entries of deleted trajectories", async () => {
    const target = ids.get("ansi-case")!;
    await t.db.$transaction((tx) => indexStepsForSearch(tx, target, ANSI_TRAJECTORY.steps));
    expect((await searchSteps(t.ctx, { q: "zebra", limit: 10 })).hits).toHaveLength(1);
    await t.db.trajectory.delete({ where: { id: target } });
    expect((await searchSteps(t.ctx, { q: "zebra", limit: 10 })).hits).toHaveLength(0);
    const viewer = await t.as("vic", "viewer");
    await expect(rebuildSearchIndex(viewer)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await rebuildSearchIndex(t.ctx)).toEqual({ trajectories: generated.length });
    expect(await searchIndexLag(t.db)).toBe(0);
    expect((await listTrajectories(t.ctx, q({ q: "ModuleNotFoundError" }))).total).toBe(matching(/\bModuleNotFoundError\b/i).length);
  });
});

// Its own database: re-indexing changes the index order (newest-indexed first) that the searches above expect.
describe.each(PROVIDERS)("search index catch-up on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 40, seed: 9 });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("a catch-up pass carries a cursor: each step reads past the last one, ties on import time included", async () => {
    // Trajectories written in one batch share their import time on PostgreSQL: the id breaks the tie.
    const removed = (await t.db.trajectory.findMany({ select: { id: true } }))
      .map((r) => r.id)
      .sort()
      .filter((_, i) => i % 7 === 0);
    expect(removed.length).toBeGreaterThan(5);
    for (const id of removed) await removeFromSearchIndex(t.db, id);
    expect(await searchIndexLag(t.db)).toBe(removed.length);
    let cursor: IndexCursor | null = null;
    let lastCursor: IndexCursor | null = null;
    let indexed = 0;
    let steps = 0;
    do {
      const step = await indexMissingAfter(t.db, 2, cursor);
      indexed += step.indexed;
      lastCursor = cursor ?? lastCursor;
      cursor = step.next;
      steps++;
    } while (cursor && steps < 100);
    expect(indexed).toBe(removed.length);
    // ceil(n / 2) steps that find trajectories, and one that finds none.
    expect(steps).toBe(Math.ceil(removed.length / 2) + 1);
    expect(await searchIndexLag(t.db)).toBe(0);
    // A step never goes back behind its cursor (that re-reading is what made 10^6 take hours); a new pass does.
    const [oldest] = await t.db.trajectory.findMany({ select: { id: true }, orderBy: [{ importedAt: "asc" }, { id: "asc" }], take: 1 });
    await removeFromSearchIndex(t.db, oldest!.id);
    expect(await indexMissingAfter(t.db, 2, lastCursor)).toEqual({ indexed: 0, next: null });
    expect((await indexMissingAfter(t.db, 2, null)).indexed).toBe(1);
  });

  it.skipIf(skip)(
    "a rebuild over several batches (each next one read while the last is written) indexes every trajectory once",
    async () => {
      await seedDemo(t.ctx, { count: 200, seed: 10 });
      const all = await t.db.trajectory.count();
      expect(all).toBeGreaterThan(200); // more than two batches of 100
      const before = (await listTrajectories(t.ctx, q({ q: "pip" }))).total;
      expect(before).toBeGreaterThan(0);
      expect(await rebuildSearchIndex(t.ctx)).toEqual({ trajectories: all });
      expect(await searchIndexLag(t.db)).toBe(0);
      expect((await listTrajectories(t.ctx, q({ q: "pip" }))).total).toBe(before);
    },
  );
});
