// Pipelines retry: the same trajectories arrive in overlapping batches at the same time. Each must be stored once and
// every answer must be `imported` or `duplicate` — never `failed: duplicate key …` — on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { ingestTrajectories } from "../../lib/services/import/ingest-trajectories.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

describe.each(PROVIDERS)("concurrent identical ingests on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("answers duplicate for every retry that loses the race, and stores each trajectory once", async () => {
    const all = [...generateTrajectories({ count: 24, seed: 1601 })].map((x, i) => ({
      ...x,
      fork: undefined,
      id: i % 2 ? `retry-${provider}-${i}` : undefined,
    }));
    // Eight requests over overlapping windows of the same 24 records (each record is in 3–4 of them), all at once.
    const windows = Array.from({ length: 8 }, (_, k) => {
      const from = (k * 3) % all.length;
      return [...all.slice(from), ...all.slice(0, from)].slice(0, 10);
    });
    const answers = await Promise.all(windows.map((w) => ingestTrajectories(t.ctx, JSON.stringify(w), { ndjson: false })));
    const statuses = answers.flatMap((a) => a.results.map((r) => r.status));
    expect(
      statuses.filter((s) => s === "failed"),
      JSON.stringify(answers.flatMap((a) => a.results.filter((r) => r.error))),
    ).toEqual([]);
    expect(statuses.length).toBe(80);
    const covered = new Set(windows.flatMap((w) => w.map((x) => all.indexOf(x))));
    expect(answers.reduce((n, a) => n + a.imported, 0)).toBe(covered.size);
    expect(await t.db.trajectory.count()).toBe(covered.size);
    // And a retry afterwards is all duplicates, pointing at the stored ids.
    const again = await ingestTrajectories(t.ctx, JSON.stringify(windows[0]), { ndjson: false });
    expect(again).toMatchObject({ imported: 0, duplicates: 10, failed: 0 });
  });

  it.skipIf(skip)("imports distinct trajectories with fork links from six requests at once, none failed", async () => {
    // Each request's batch writes its trajectories, then moves its parents between facet cells: concurrent batches
    // meet on the same cells, runs and tasks in different orders (a deadlock aborts one, which runs again).
    const sets = Array.from({ length: 6 }, (_, k) => [...generateTrajectories({ count: 30, seed: 1700 + k })]);
    const answers = await Promise.all(sets.map((w) => ingestTrajectories(t.ctx, JSON.stringify(w), { ndjson: false })));
    expect(answers.flatMap((a) => a.results.filter((r) => r.status === "failed"))).toEqual([]);
    expect(await t.db.trajectory.count({ where: { parentId: { not: null } } })).toBeGreaterThan(0);
  });
});
