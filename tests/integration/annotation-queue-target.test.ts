// A queue item's label lands on the item's target (the fork point, else the first error step), never step 0 by
// default; submit-and-next is one call; `u` withdraws a finished submission and reopens its item; open queues and
// reserve-ahead; step-0 labels a queue stored earlier are listed for review. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { createQueue, getQueueOverview, listQueues } from "../../lib/services/annotation/manage-queues.ts";
import {
  nextQueueItem,
  openQueueItem,
  reserveAhead,
  submitQueueLabel,
  withdrawQueueSubmission,
} from "../../lib/services/annotation/work-queue.ts";
import { getLabellingView } from "../../lib/services/annotation/labelling-view.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";
import { decideSuggestion, withdrawDecision } from "../../lib/services/annotation/suggestions/decide-suggestion.ts";
import { listSuggestions } from "../../lib/services/annotation/suggestions/list-suggestions.ts";

describe.each(PROVIDERS)("queue item targets on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let rita: ServiceContext;
  let ann: ServiceContext;
  let other: ServiceContext;
  let run: string;

  /** Failed trajectories of 6 steps; the first `forks` have a fork point after step 3, every one an error at step 2. */
  async function seed(n: number, forks: number, tag = ""): Promise<string[]> {
    const r = await t.db.run.create({ data: { name: `run-${n}-${forks}${tag}` } });
    const task = await t.db.task.create({ data: { benchmark: "test", externalId: r.id, name: `task ${r.id}` } });
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const tr = await t.db.trajectory.create({
        data: { contentHash: `${r.id}-${i}`, taskId: task.id, runId: r.id, sourceFormat: "test", outcome: "failed", stepCount: 6 },
        select: { id: true },
      });
      await t.db.step.createMany({
        data: Array.from({ length: 6 }, (_, s) => ({
          trajectoryId: tr.id,
          index: s,
          source: "agent",
          action: s === 3 ? "rg -n 'def parse'\nls" : `echo ${s}`,
          exitCode: s === 3 ? 127 : 0,
          contentHash: `${tr.id}-${s}`,
        })),
      });
      await t.db.detectedError.create({ data: { trajectoryId: tr.id, stepIndex: 2, category: "command-error", signal: "exit-code" } });
      if (i < forks) await t.db.forkPoint.create({ data: { trajectoryId: tr.id, stepIndex: 3 } });
      ids.push(tr.id);
    }
    run = r.id;
    return ids;
  }

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    rita = await t.as("rita", "researcher");
    ann = await t.as("ann", "annotator");
    other = await t.as("otto", "annotator");
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("the default target is the fork point (with words), else the first error step; a queue label lands there", async () => {
    const ids = await seed(2, 1);
    const q = await createQueue(rita, { name: "forks", filter: `runId=${run}`, schemas: ["error-category"], assignees: ["ann"] });
    const withFork = await getLabellingView(ann, ids[0]!);
    const schemaId = withFork.schemas.find((s) => s.key === "error-category")!.id;
    expect(withFork.defaults[schemaId]).toMatchObject({
      type: "fork_point",
      input: { forkStep: 3 },
      step: 3,
      words: "fork point after step 3 · rg -n 'def parse' → exit 127",
    });
    expect((await getLabellingView(ann, ids[1]!)).defaults[schemaId]).toMatchObject({
      type: "step_range",
      input: { steps: [2, 2] },
      step: 2,
    });

    const labelled: { targetType: string; forkPointId: string | null; stepStart: number | null }[] = [];
    for (let i = 0; i < 2; i++) {
      const slot = (await nextQueueItem(ann, q.id))!;
      const d = (await getLabellingView(ann, slot.trajectoryId, { slotId: slot.slotId })).defaults[schemaId]!;
      const r = await submitQueueLabel(
        ann,
        slot.slotId,
        { trajectory: slot.trajectoryId, schema: "error-category", value: "command-error", target: d.input },
        { queue: q.name },
      );
      expect(r.done).toBe(true);
      labelled.push(r.label);
    }
    const fork = await t.db.forkPoint.findFirstOrThrow({ where: { trajectoryId: ids[0]! } });
    // The fork point's label carries its id (the recovery analytics and adjudication count it there).
    expect(labelled).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ targetType: "fork_point", forkPointId: fork.id }),
        expect.objectContaining({ targetType: "step_range", stepStart: 2 }),
      ]),
    );
    expect(labelled.some((l) => l.stepStart === 0)).toBe(false);
    expect(await nextQueueItem(ann, q.id)).toBeNull();
  });

  it.skipIf(skip)("u after Enter: the label is withdrawn (audited) and the item is the annotator's reservation again", async () => {
    await seed(2, 2);
    const q = await createQueue(rita, { name: "undo", filter: `runId=${run}`, schemas: ["error-category"], assignees: ["ann"] });
    const slot = (await nextQueueItem(ann, q.id))!;
    const ahead = (await reserveAhead(ann, q.id, slot.slotId))!;
    expect(ahead.itemId).not.toBe(slot.itemId);
    const r = await submitQueueLabel(ann, slot.slotId, {
      trajectory: slot.trajectoryId,
      schema: "error-category",
      value: "hang",
      target: { forkStep: 3 },
    });
    // The next item is the one reserved ahead: no second reservation was made.
    expect(r.next?.slotId).toBe(ahead.slotId);
    await withdrawQueueSubmission(ann, slot.slotId, { id: r.label.id, version: r.label.version, previous: null });
    expect(await t.db.annotation.count({ where: { id: r.label.id } })).toBe(0);
    expect(await t.db.auditEvent.count({ where: { targetId: r.label.id, action: "label.write" } })).toBe(2);
    expect(await openQueueItem(ann, q.id, slot.slotId)).toMatchObject({ slotId: slot.slotId });
    expect((await t.db.queueItem.findUniqueOrThrow({ where: { id: slot.itemId } })).doneCount).toBe(0);
    // Someone else's slot cannot be withdrawn.
    await expect(withdrawQueueSubmission(other, slot.slotId, { id: "x", version: 1, previous: null })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it.skipIf(skip)("Enter racing the page's reserve-ahead never says 'finished' while the annotator holds the last item", async () => {
    // The page reserves the next item as it opens; a fast Enter saves before that reservation is made. When the
    // reserve-ahead takes the queue's last item while the submission looks for one, the submission must still
    // hand that item over, not end the queue for an annotator who holds it (nobody else could take it until it expires).
    for (let round = 0; round < 30; round++) {
      await seed(2, 2, `-race-${round}`);
      const q = await createQueue(rita, { name: `race-${round}`, filter: `runId=${run}`, schemas: ["error-category"], assignees: ["ann"] });
      const slot = (await nextQueueItem(ann, q.id))!;
      const ahead = (async () => {
        await new Promise((resolve) => setTimeout(resolve, round));
        return reserveAhead(ann, q.id, slot.slotId);
      })();
      const [r, held] = await Promise.all([
        submitQueueLabel(ann, slot.slotId, { trajectory: slot.trajectoryId, schema: "error-category", value: "hang" }),
        ahead,
      ]);
      // Either call may be the one that reserves the last item; the other then finds it held (or, on PostgreSQL, finds
      // it being reserved and returns null: the page then prefetches nothing, which is harmless).
      expect(r.next, `round ${round}: the item after the submission`).not.toBeNull();
      if (held) expect(held.slotId, `round ${round}: reserve-ahead`).toBe(r.next!.slotId);
      expect(await t.db.queueSlot.count({ where: { queueId: q.id, annotatorId: ann.actor.id, status: "reserved" } })).toBe(1);
    }
  });

  it.skipIf(skip)("a queue without assignees is open to every annotator; step-0 labels from a queue are listed for review", async () => {
    const ids = await seed(1, 1);
    const q = await createQueue(rita, { name: "open", filter: `runId=${run}`, schemas: ["error-category"] });
    expect((await listQueues(other)).map((x) => x.name)).toContain("open");
    const slot = (await nextQueueItem(other, q.id))!;
    expect(slot.trajectoryId).toBe(ids[0]);
    // The old behaviour: the label on step 0, then the item finished.
    await createLabel(other, { trajectory: ids[0]!, schema: "error-category", value: "hang", target: { steps: [0, 0] } });
    const r = await submitQueueLabel(other, slot.slotId, {
      trajectory: ids[0]!,
      schema: "error-category",
      value: "hang",
      target: { forkStep: 3 },
    });
    expect(r.done).toBe(true);
    const overview = await getQueueOverview(rita, q.id);
    expect(overview.stepZero).toEqual([
      expect.objectContaining({ trajectoryId: ids[0], annotatorName: "otto", forkStep: 3, value: "hang" }),
    ]);
    expect((await getQueueOverview(ann, q.id)).stepZero).toEqual([]);
  });

  it.skipIf(skip)("u after accepting a suggestion withdraws the decision and its label; the suggestion is offered again", async () => {
    const [id] = await seed(1, 0);
    const before = await listSuggestions(ann, { trajectory: id });
    const sug = before.suggestions.find((x) => x.key.startsWith("det:"))!;
    const r = await decideSuggestion(ann, { suggestion: sug.key, decision: "accepted" });
    expect(r.label).not.toBeNull();
    expect((await listSuggestions(ann, { trajectory: id })).suggestions.map((x) => x.key)).not.toContain(sug.key);
    expect(await withdrawDecision(ann, sug.key)).toEqual({ suggestion: sug.key, labelId: r.label!.id });
    expect(await t.db.annotation.count({ where: { id: r.label!.id } })).toBe(0);
    expect((await listSuggestions(ann, { trajectory: id })).suggestions.map((x) => x.key)).toContain(sug.key);
    await expect(withdrawDecision(ann, sug.key)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
