// "Next item" under contention, on SQLite and PostgreSQL: many annotators asking at once never share a
// place, with either reserve strategy; an expired reservation raced by several annotators goes to exactly one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { createQueue } from "../../lib/services/annotation/manage-queues.ts";
import { completeQueueItem, nextQueueItem } from "../../lib/services/annotation/work-queue.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";

describe.each(PROVIDERS)("next item under contention on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let rita: ServiceContext;
  const people: ServiceContext[] = [];
  const names = Array.from({ length: 12 }, (_, i) => `n${i}`);

  /** A run of `n` bare trajectories, so a queue from `runId=…` has exactly n items. */
  async function runOf(name: string, n: number): Promise<string> {
    const run = await t.db.run.create({ data: { name } });
    const task = await t.db.task.create({ data: { benchmark: "test", externalId: name, name } });
    await t.db.trajectory.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        contentHash: `${name}-${i}`,
        taskId: task.id,
        runId: run.id,
        sourceFormat: "test",
        outcome: "failed",
      })),
    });
    return run.id;
  }

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    rita = await t.as("rita", "researcher");
    for (const n of names) people.push(await t.as(n, "annotator"));
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)(
    "12 annotators at once, round after round, never share an item (both strategies), and the queue drains exactly",
    async () => {
      const run = await runOf("contended", 60);
      const q = await createQueue(rita, {
        name: "contended",
        filter: `runId=${run}`,
        schemas: ["error-category"],
        labelsPerItem: 1,
        assignees: names,
      });
      const seen = new Set<string>();
      for (let round = 0; round < 5; round++) {
        const strategy = round % 2 === 0 ? "spread" : "first";
        const got = await Promise.all(people.map((p) => nextQueueItem(p, q.id, new Date(), strategy)));
        expect(got.every(Boolean)).toBe(true);
        const ids = got.map((s) => s!.itemId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [i, s] of got.entries()) {
          expect(seen.has(s!.itemId)).toBe(false);
          seen.add(s!.itemId);
          await createLabel(people[i]!, { trajectory: s!.trajectoryId, schema: "error-category", value: "hang" });
          await completeQueueItem(people[i]!, s!.slotId);
        }
      }
      expect(seen.size).toBe(60);
      // Everything is done: nobody gets anything more.
      expect(await Promise.all(people.map((p) => nextQueueItem(p, q.id)))).toEqual(people.map(() => null));
      expect(await t.db.queueSlot.count({ where: { queueId: q.id, status: "done" } })).toBe(60);
    },
  );

  it.skipIf(skip)("labelsPerItem = 3 with 12 annotators on 4 items: each item gets exactly 3 distinct annotators", async () => {
    const run = await runOf("triple", 4);
    const q = await createQueue(rita, {
      name: "triple",
      filter: `runId=${run}`,
      schemas: ["error-category"],
      labelsPerItem: 3,
      assignees: names,
    });
    const got = await Promise.all(people.map((p) => nextQueueItem(p, q.id)));
    expect(got.every(Boolean)).toBe(true);
    const slots = await t.db.queueSlot.findMany({ where: { queueId: q.id }, select: { itemId: true, slot: true, annotatorId: true } });
    const perItem = new Map<string, Set<number>>();
    for (const s of slots) perItem.set(s.itemId, (perItem.get(s.itemId) ?? new Set()).add(s.slot!));
    expect([...perItem.values()].map((x) => [...x].sort())).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
    ]);
    expect(new Set(slots.map((s) => s.annotatorId)).size).toBe(12);
  });

  it.skipIf(skip)("an expired reservation raced by 6 annotators goes to exactly one; the others get nothing", async () => {
    const run = await runOf("expiring", 1);
    const q = await createQueue(rita, {
      name: "expiring",
      filter: `runId=${run}`,
      schemas: ["error-category"],
      labelsPerItem: 1,
      assignees: names,
      reservationMinutes: 1,
    });
    const now = new Date();
    const first = (await nextQueueItem(people[0]!, q.id, now))!;
    expect(first).not.toBeNull();
    // Still live: nobody else gets the only item.
    expect(await nextQueueItem(people[1]!, q.id, new Date(now.getTime() + 30_000))).toBeNull();
    const later = new Date(now.getTime() + 120_000);
    const got = await Promise.all(people.slice(1, 7).map((p) => nextQueueItem(p, q.id, later)));
    const winners = got.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.slotId).toBe(first.slotId); // the same place, taken over
    const slot = await t.db.queueSlot.findUniqueOrThrow({ where: { id: first.slotId }, select: { annotatorId: true } });
    expect(slot.annotatorId).not.toBe(people[0]!.actor.id);
  });
});
