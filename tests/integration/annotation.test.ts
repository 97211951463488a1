// Labels, history, 409 on concurrent edits, annotationCount, blind mode, JSONL import, queues with reservation races
// and agreement — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { createLabel, deleteLabel, updateLabel } from "../../lib/services/annotation/save-label.ts";
import { getLabelHistory, listLabels } from "../../lib/services/annotation/list-labels.ts";
import { importLabels } from "../../lib/services/annotation/import-labels.ts";
import { createQueue, getQueueOverview, listQueues } from "../../lib/services/annotation/manage-queues.ts";
import { completeQueueItem, nextQueueItem, skipQueueItem } from "../../lib/services/annotation/work-queue.ts";
import { computeAgreement } from "../../lib/services/annotation/compute-agreement.ts";
import { isAppError } from "../../lib/errors.ts";
import { getAdjudication, recordGoldLabel } from "../../lib/services/annotation/adjudicate.ts";
import { exportSchemas, importSchemas, saveSchema } from "../../lib/services/annotation/manage-schemas.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (isAppError(e)) return e.code;
    if ((e as Error).name === "ZodError") return "ZOD";
    throw e;
  }
}
async function messageOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "";
  } catch (e) {
    return (e as Error).message;
  }
}

describe.each(PROVIDERS)("annotation on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let alice: ServiceContext;
  let bob: ServiceContext;
  let rita: ServiceContext;
  let roots: { id: string; stepCount: number; externalId: string | null }[];
  let attempt: { id: string };
  let fork: { trajectoryId: string; stepIndex: number };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 30, seed: 5 });
    alice = await t.as("alice", "annotator");
    bob = await t.as("bob", "annotator");
    rita = await t.as("rita", "researcher");
    roots = await t.db.trajectory.findMany({
      where: { parentId: null, stepCount: { gte: 6 } },
      orderBy: { id: "asc" },
      select: { id: true, stepCount: true, externalId: true },
    });
    attempt = await t.db.trajectory.findFirstOrThrow({ where: { parentId: { not: null } }, select: { id: true } });
    fork = await t.db.forkPoint.findFirstOrThrow({ select: { trajectoryId: true, stepIndex: true } });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const count = async (id: string) => {
    const [row, actual] = await Promise.all([
      t.db.trajectory.findUniqueOrThrow({ where: { id }, select: { annotationCount: true } }),
      t.db.annotation.count({ where: { trajectoryId: id } }),
    ]);
    return { stored: row.annotationCount, actual };
  };

  it.skipIf(skip)("creates labels on step ranges, fork points and attempts and keeps annotationCount", async () => {
    const traj = roots[0]!;
    const l = await createLabel(alice, {
      trajectory: traj.id,
      schema: "error-category",
      value: "command-error",
      target: { steps: [1, 3] },
      comment: "exit 127",
    });
    expect(l).toMatchObject({
      targetType: "step_range",
      stepStart: 1,
      stepEnd: 3,
      value: "command-error",
      version: 1,
      annotatorName: "alice",
    });
    await createLabel(alice, {
      trajectory: fork.trajectoryId,
      schema: "error-category",
      value: "timeout",
      target: { forkStep: fork.stepIndex },
    });
    const a = await createLabel(alice, { trajectory: attempt.id, schema: "recovery-quality", value: 3 });
    expect(a.targetType).toBe("attempt");
    expect(a.value).toBe("3");
    expect(await count(traj.id)).toEqual({ stored: 1, actual: 1 });
    expect(await count(attempt.id)).toEqual({ stored: 1, actual: 1 });
    // The same annotator cannot label the same target twice: edit instead.
    expect(
      await codeOf(createLabel(alice, { trajectory: traj.id, schema: "error-category", value: "timeout", target: { steps: [1, 3] } })),
    ).toBe("CONFLICT");
    expect(await count(traj.id)).toEqual({ stored: 1, actual: 1 });
  });

  it.skipIf(skip)("rejects bad input with a message naming the field", async () => {
    const traj = roots[0]!;
    expect(
      await messageOf(createLabel(alice, { trajectory: traj.id, schema: "error-category", value: "nope", target: { steps: [0, 0] } })),
    ).toMatch(/value: "nope" is not an option/);
    expect(
      await messageOf(
        createLabel(alice, { trajectory: traj.id, schema: "error-category", value: "timeout", target: { steps: [2, traj.stepCount] } }),
      ),
    ).toMatch(/target: step \d+ is outside/);
    expect(await messageOf(createLabel(alice, { trajectory: "missing", schema: "error-category", value: "timeout" }))).toMatch(
      /trajectory: no trajectory/,
    );
    expect(await messageOf(createLabel(alice, { trajectory: traj.id, schema: "recovery-quality", value: "1" }))).toBe(
      "target: this schema labels attempt targets, not a trajectory",
    );
    expect(
      await codeOf(createLabel(await t.as("vera", "viewer"), { trajectory: traj.id, schema: "error-category", value: "timeout" })),
    ).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("refuses a save over a label someone changed meanwhile (409 naming who) and keeps every change in history", async () => {
    const traj = roots[1]!;
    const l = await createLabel(alice, { trajectory: traj.id, schema: "error-category", value: "hang", target: { steps: [0, 1] } });
    // Two tabs of alice's (or a reviewer correcting her label) read version 1; the first save wins.
    const first = await updateLabel(rita, { id: l.id, version: 1, value: "timeout" });
    expect(first.version).toBe(2);
    const msg = await messageOf(updateLabel(alice, { id: l.id, version: 1, value: "command-error" }));
    expect(msg).toMatch(/changed by rita/);
    expect((await listLabels(t.ctx, { trajectory: traj.id })).labels.find((x) => x.id === l.id)!.value).toBe("timeout");
    const again = await updateLabel(alice, { id: l.id, version: 2, value: "command-error", comment: "why" });
    expect(again).toMatchObject({ version: 3, value: "command-error", comment: "why" });
    expect(await codeOf(deleteLabel(alice, l.id, 2))).toBe("CONFLICT");
    await deleteLabel(alice, l.id, 3);
    const history = await getLabelHistory(t.ctx, traj.id);
    expect(
      history
        .filter((e) => e.annotationId === l.id)
        .map((e) => [e.action, e.actorName, e.oldValue, e.newValue])
        .reverse(),
    ).toEqual([
      ["create", "alice", null, "hang"],
      ["update", "rita", "hang", "timeout"],
      ["update", "alice", "timeout", "command-error"],
      ["delete", "alice", "command-error", null],
    ]);
    expect(await count(traj.id)).toEqual({ stored: 0, actual: 0 });
    // …and the audit log names who did each change to this label (t.ctx is the admin).
    const audit = (await listAuditEvents(t.ctx, { action: "label.", limit: 10_000 })).filter((e) => e.targetId === l.id);
    expect(audit.map((e) => [e.actorName, JSON.parse(e.details ?? "{}").change]).reverse()).toEqual([
      ["alice", "create"],
      ["rita", "update"],
      ["alice", "update"],
      ["alice", "delete"],
    ]);
  });

  it.skipIf(skip)("two concurrent saves at the same version: exactly one wins", async () => {
    const l = await createLabel(bob, { trajectory: roots[2]!.id, schema: "error-category", value: "hang" });
    const results = await Promise.allSettled([
      updateLabel(bob, { id: l.id, version: 1, value: "timeout" }),
      updateLabel(bob, { id: l.id, version: 1, value: "test-failure" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(isAppError(rejected.reason) && rejected.reason.code).toBe("CONFLICT");
  });

  it.skipIf(skip)("blind mode on the server: an annotator sees only their own labels and history", async () => {
    const traj = roots[3]!;
    await createLabel(alice, { trajectory: traj.id, schema: "error-category", value: "hang" });
    await createLabel(bob, { trajectory: traj.id, schema: "error-category", value: "timeout" });
    expect((await listLabels(alice, { trajectory: traj.id })).labels.map((l) => l.annotatorName)).toEqual(["alice"]);
    expect((await listLabels(rita, { trajectory: traj.id })).labels.map((l) => l.annotatorName).sort()).toEqual(["alice", "bob"]);
    expect((await getLabelHistory(bob, traj.id)).every((e) => e.actorName === "bob")).toBe(true);
    const bobs = (await listLabels(rita, { trajectory: traj.id, annotator: "bob" })).labels[0]!;
    expect(await codeOf(updateLabel(alice, { id: bobs.id, version: 1, value: "hang" }))).toBe("NOT_FOUND");
    // Naming bob does not get around blind mode.
    expect((await listLabels(alice, { trajectory: traj.id, annotator: "bob" })).labels).toEqual([]);
  });

  it.skipIf(skip)("imports JSONL labels: checks every line first, creates annotators, re-import changes nothing", async () => {
    const a = roots[4]!;
    const lines = [
      {
        trajectory: a.externalId ?? a.id,
        schema: "error-category",
        value: "test-failure",
        annotator: "imp-1",
        target: { steps: [0, 2] },
        comment: "pytest",
      },
      { trajectory: a.id, schema: "error-category", value: "test-failure", annotator: "imp-2", target: { steps: [0, 2] } },
      { trajectory: attempt.id, schema: "recovery-quality", value: "2", annotator: "imp-1" },
    ];
    const bad = [...lines.map((l) => JSON.stringify(l)), "{not json", JSON.stringify({ ...lines[0], value: "zzz" })].join("\n");
    const refused = await importLabels(t.ctx, bad);
    expect(refused.issues.map((i) => [i.line, i.field])).toEqual([
      [4, "(line)"],
      [5, "value"],
    ]);
    expect(refused.created).toBe(0);
    expect(await t.db.user.count({ where: { name: "imp-1" } })).toBe(0);
    const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
    const first = await importLabels(t.ctx, text);
    expect(first).toMatchObject({ created: 3, updated: 0, unchanged: 0, issues: [] });
    expect(first.annotatorsCreated.sort()).toEqual(["imp-1", "imp-2"]);
    expect((await t.db.user.findUniqueOrThrow({ where: { name: "imp-1" } })).role).toBe("annotator");
    const before = await t.db.annotationEvent.count();
    const second = await importLabels(t.ctx, text);
    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await t.db.annotationEvent.count()).toBe(before);
    expect(await codeOf(importLabels(alice, text))).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("queues: created from a filter, two annotators racing for 'next' never share a place, skip and done", async () => {
    // Only trajectories nobody labelled yet: "next" hands items out in a random order, and an item an earlier test
    // already labelled would let "done" through before this test labels it.
    const failed = await t.db.trajectory.count({ where: { outcome: "failed", annotationCount: 0 } });
    const q = await createQueue(rita, {
      name: `q-${provider}`,
      filter: "outcome=failed&annotated=nobody&page=3&perPage=5",
      schemas: ["error-category"],
      labelsPerItem: 1,
      assignees: ["alice", "bob"],
    });
    expect(q.itemCount).toBe(failed); // every matching row, not one page
    expect(
      new Set((await t.db.queueItem.findMany({ where: { queueId: q.id }, select: { trajectoryId: true } })).map((i) => i.trajectoryId))
        .size,
    ).toBe(failed);
    expect((await listQueues(alice)).map((x) => x.name)).toContain(q.name);
    const carl = await t.as("carl", "annotator");
    expect(await listQueues(carl)).toEqual([]);
    expect(await codeOf(nextQueueItem(carl, q.id))).toBe("NOT_FOUND");

    // Race: both ask at once, many times over; no item is ever handed to both.
    const taken = new Map<string, string>();
    for (let round = 0; round < 4; round++) {
      const [sa, sb] = await Promise.all([nextQueueItem(alice, q.id), nextQueueItem(bob, q.id)]);
      expect(sa && sb).toBeTruthy();
      expect(sa!.itemId).not.toBe(sb!.itemId);
      for (const [who, s] of [
        ["alice", sa!],
        ["bob", sb!],
      ] as const) {
        expect(taken.has(s.itemId)).toBe(false);
        taken.set(s.itemId, who);
        const ctx = who === "alice" ? alice : bob;
        // Asking again returns the same reservation.
        expect((await nextQueueItem(ctx, q.id))!.slotId).toBe(s.slotId);
        expect(await messageOf(completeQueueItem(ctx, s.slotId))).toMatch(/label error-category/);
        if (round === 3 && who === "bob") {
          await skipQueueItem(ctx, s.slotId, { reason: "unreadable output" });
        } else {
          // An earlier test may have labelled this target already (409): the queue only needs a label to exist.
          await createLabel(ctx, {
            trajectory: s.trajectoryId,
            schema: "error-category",
            value: "timeout",
            target: { steps: [0, 0] },
          }).catch((e) => expect(e.code).toBe("CONFLICT"));
          await completeQueueItem(ctx, s.slotId);
        }
      }
    }
    const overview = await getQueueOverview(rita, q.id);
    expect(overview.progress).toMatchObject({ items: failed, done: 7, skipped: 1 });
    expect(overview.skips[0]).toMatchObject({ annotator: "bob", reason: "unreadable output" });
    expect((await getQueueOverview(alice, q.id)).progress.perAnnotator.map((p) => p.name)).toEqual(["alice"]);
  });

  it.skipIf(skip)("reservations expire: another annotator takes an expired place; the late finisher is refused", async () => {
    const q = await createQueue(rita, {
      name: `exp-${provider}`,
      filter: `taskId=${(await t.db.trajectory.findFirstOrThrow({ where: { id: roots[5]!.id }, select: { taskId: true } })).taskId}`,
      schemas: ["error-category"],
      labelsPerItem: 1,
      assignees: ["alice", "bob"],
      reservationMinutes: 1,
    });
    const items = q.itemCount;
    const now = new Date();
    const a = (await nextQueueItem(alice, q.id, now))!;
    // Bob, 2 minutes later: alice's reservation on the first item has expired, so bob gets it (lowest position first).
    const b = (await nextQueueItem(bob, q.id, new Date(now.getTime() + 120_000)))!;
    expect(b.itemId).toBe(a.itemId);
    expect(await messageOf(completeQueueItem(alice, a.slotId))).toMatch(/expired and another annotator took/);
    expect(items).toBeGreaterThan(0);
  });

  it.skipIf(skip)("labelsPerItem = 2: 6 annotators racing fill each item at most twice", async () => {
    const names = ["r1", "r2", "r3", "r4", "r5", "r6"];
    const ctxs = await Promise.all(names.map((n) => t.as(n, "annotator")));
    const task = (await t.db.trajectory.findFirstOrThrow({ where: { id: roots[0]!.id }, select: { taskId: true } })).taskId;
    const q = await createQueue(rita, {
      name: `pair-${provider}`,
      filter: `taskId=${task}`,
      schemas: ["error-category"],
      labelsPerItem: 2,
      assignees: names,
    });
    const got = await Promise.all(ctxs.map((c) => nextQueueItem(c, q.id)));
    const perItem = new Map<string, number>();
    for (const s of got) if (s) perItem.set(s.itemId, (perItem.get(s.itemId) ?? 0) + 1);
    expect(Math.max(...perItem.values())).toBeLessThanOrEqual(2);
    expect(got.filter(Boolean).length).toBe(Math.min(6, q.itemCount * 2));
  });

  it.skipIf(skip)("agreement per queue over items two annotators labelled, with disagreements", async () => {
    const ids = roots.slice(6, 10).map((r) => r.id);
    const values: [string, string][] = [
      ["hang", "hang"],
      ["timeout", "timeout"],
      ["hang", "timeout"],
      ["timeout", "timeout"],
    ];
    const p = await t.as("p1", "annotator");
    const q2 = await t.as("p2", "annotator");
    for (let i = 0; i < ids.length; i++) {
      // Step 4: no other test labels it ("next item" hands out queue items in a random order, so the queue test's
      // step-0 labels may land on any of these trajectories).
      await createLabel(p, { trajectory: ids[i]!, schema: "error-category", value: values[i]![0], target: { steps: [4, 4] } });
      await createLabel(q2, { trajectory: ids[i]!, schema: "error-category", value: values[i]![1], target: { steps: [4, 4] } });
    }
    const filter = `annotated=anyone`;
    const q = await createQueue(rita, {
      name: `agree-${provider}`,
      filter,
      schemas: ["error-category"],
      labelsPerItem: 2,
      assignees: ["p1", "p2"],
    });
    const r = await computeAgreement(rita, { schema: "error-category", queue: q.name });
    // Only p1/p2 rated the step-4 targets of these four trajectories together; earlier tests add other pairable targets.
    const mine = r.disagreements.filter((d) => ids.includes(d.trajectoryId));
    const task = await t.db.trajectory.findUniqueOrThrow({ where: { id: ids[2]! }, select: { task: { select: { name: true } } } });
    expect(mine).toEqual([
      {
        targetKey: `steps:${ids[2]}:4-4`,
        trajectoryId: ids[2],
        taskName: task.task.name,
        target: { targetType: "step_range", stepStart: 4, stepEnd: 4 },
        labels: [
          { annotator: "p1", value: "hang" },
          { annotator: "p2", value: "timeout" },
        ],
      },
    ]);
    // The matrix and the list name values by the schema's labels.
    expect(r.schemaName).toBe("Error category");
    expect(r.valueLabels).toMatchObject({ hang: "Hang / interactive prompt", timeout: "Timeout" });
    expect(await codeOf(computeAgreement(alice, { schema: "error-category" }))).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("adjudication: every label side by side, the final label is versioned (409 for a stale save)", async () => {
    const traj = roots[3]!; // alice: hang, bob: timeout on the whole trajectory (blind-mode test)
    const adj = await getAdjudication(rita, traj.id);
    const target = adj.targets.find((x) => x.targetKey === `traj:${traj.id}` && x.schemaKey === "error-category")!;
    expect(target.agreed).toBe(false);
    expect(target.labels.map((l) => l.annotatorName).sort()).toEqual(["alice", "bob"]);
    const gold = await recordGoldLabel(rita, { trajectory: traj.id, schema: "error-category", value: "timeout", version: 0 });
    expect(gold.version).toBe(1);
    const other = await t.as("otto", "researcher");
    expect(await messageOf(recordGoldLabel(other, { trajectory: traj.id, schema: "error-category", value: "hang", version: 0 }))).toMatch(
      /recorded by rita/,
    );
    expect((await recordGoldLabel(other, { trajectory: traj.id, schema: "error-category", value: "hang", version: 1 })).version).toBe(2);
    expect((await getAdjudication(rita, traj.id)).targets.find((x) => x.targetKey === `traj:${traj.id}`)!.gold!.value).toBe("hang");
    expect(await codeOf(getAdjudication(alice, traj.id))).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("schemas: admins edit; a dropped option is retired (old labels stay readable), export/import round-trips", async () => {
    const created = await saveSchema(t.ctx, {
      key: `tone-${provider}`,
      name: "Tone",
      kind: "categorical",
      targets: ["trajectory"],
      options: [
        { value: "calm", label: "Calm", hotkey: "1" },
        { value: "rushed", label: "Rushed", hotkey: "2" },
      ],
    });
    const traj = roots[7]!;
    await createLabel(alice, { trajectory: traj.id, schema: created.key, value: "rushed" });
    const edited = await saveSchema(
      t.ctx,
      {
        key: created.key,
        name: "Tone",
        kind: "categorical",
        targets: ["trajectory"],
        options: [{ value: "calm", label: "Calm", hotkey: "1" }],
      },
      created.updatedAt,
    );
    expect(edited.options.find((o) => o.value === "rushed")).toMatchObject({ retired: true });
    expect((await listLabels(t.ctx, { trajectory: traj.id, schema: created.key })).labels[0]!.value).toBe("rushed");
    expect(await messageOf(createLabel(bob, { trajectory: traj.id, schema: created.key, value: "rushed" }))).toMatch(/retired/);
    expect(
      await messageOf(
        saveSchema(
          t.ctx,
          { key: created.key, name: "X", kind: "categorical", targets: ["trajectory"], options: [{ value: "calm", label: "Calm" }] },
          created.updatedAt,
        ),
      ),
    ).toMatch(/changed by someone else/);
    expect(await codeOf(saveSchema(rita, { key: "nope", name: "N", kind: "text", targets: ["trajectory"] }))).toBe("FORBIDDEN");
    expect(
      await messageOf(
        saveSchema(t.ctx, {
          key: "bad",
          name: "B",
          kind: "categorical",
          targets: ["trajectory"],
          options: [{ value: "a", label: "A", hotkey: "j" }],
        }),
      ),
    ).toMatch(/reserved/);
    const json = await exportSchemas(t.ctx);
    const r = await importSchemas(t.ctx, json);
    expect(r.created).toEqual([]);
    expect(r.updated).toContain("error-category");
    expect(JSON.parse(await exportSchemas(t.ctx))).toEqual(JSON.parse(json));
  });
});
