// The export reader (raw SQL on the provider's own connection) on both databases: a pass that is abandoned part way
// (a cancelled download, a failing writer) closes its connection — on PostgreSQL no session is left idle in its
// read-only transaction — and batches come back in position order with their steps in index order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import-trajectories.ts";
import { createDataset } from "../../lib/services/curation/manage-datasets.ts";
import { loadVersionItems } from "../../lib/services/curation/items.ts";

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`export reader (${p.title})`, () => {
    let t: TestDatabase;
    let versionId: string;
    const generated = [...generateTrajectories({ count: 24, seed: 3, recordingRate: 0.5 })];

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await importTrajectories(t.ctx, generated.map((g, i) => normalized(g, "native", "g.jsonl", i + 1)), { origin: "cli", indexSearch: false });
      const { dataset } = await createDataset(t.ctx, { name: "all", rules: { source: "filter", filter: "" } });
      versionId = dataset.latest!.id;
    }, 120_000);
    afterAll(async () => {
      await t?.drop();
    });

    const ref = () => ({ dataset: "all", versionId, version: null, contentHash: null, frozen: false });

    it("reads every item once, in position order, steps in index order, recordings where stored", async () => {
      const positions: number[] = [];
      let recordings = 0;
      for await (const batch of loadVersionItems(t.db, ref(), 5)) {
        expect(batch.length).toBeLessThanOrEqual(5);
        for (const it of batch) {
          positions.push(it.position);
          const steps = it.item.trajectory.steps;
          const stored = await t.db.step.findMany({ where: { trajectoryId: it.item.dbId }, orderBy: { index: "asc" }, select: { action: true, observation: true } });
          expect(steps.map((s) => [s.action ?? null, s.observation ?? null])).toEqual(stored.map((s) => [s.action, s.observation]));
          if (it.item.trajectory.recording) recordings++;
        }
      }
      expect(positions).toEqual([...Array(generated.length).keys()]);
      expect(recordings).toBe(await t.db.recording.count());
      expect(recordings).toBeGreaterThan(0);
    });

    it("closes its connection when the caller stops after the first batch", async () => {
      for await (const batch of loadVersionItems(t.db, ref(), 5)) {
        expect(batch).toHaveLength(5);
        break;
      }
      if (p.provider === "postgresql") {
        const left = await t.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
        expect(left[0]!.n).toBe(0);
      }
      // The next pass (a new reader) still works.
      let n = 0;
      for await (const batch of loadVersionItems(t.db, ref(), 10)) n += batch.length;
      expect(n).toBe(generated.length);
    });
  });
}
