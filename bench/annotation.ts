// Annotation under load, on SQLite and PostgreSQL (fresh databases, dropped afterwards):
//  1. 50 simulated annotators submit labels for BENCH_SECONDS (default 60) through the label services — create, or
//     change at the version they read — and we check labels submitted vs stored (0 lost, 0 duplicated), history rows
//     and Trajectory.annotationCount; p50/p95 submit latency.
//  2. "next item" (reserve) p95 on a queue of 10^5 items created from a table filter, with the first half done,
//     as the 50 annotators take and finish items — alternating rounds of the old ("first") and the current ("spread")
//     strategy, so before/after come from the same run.
//  3. The queue workflow as the queue item page drives it: 50 annotators each take an item, then loop "submit the
//     label and get the next item" (one call, submitQueueLabel) for BENCH_SECONDS on the same 10^5-item queue; p50/p95
//     per call, and the checks: 0 lost labels, 0 double reservations, 0 failed submissions. Run paced (each annotator
//     pauses --think-ms, default 1 s, between submissions) and in a closed loop (no pause: a stress figure).
// Ratios are against a baseline measured in the same run: reading one label by id (a primary-key read).
// Usage: nice -n 5 tsx bench/annotation.ts [--seconds 60] [--queue-items 100000] [--skip-pg] [--skip-sqlite] [--next-only] [--think-ms 1000]
import { createTestDatabase, postgres, type Provider } from "../tests/helpers/test-db.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { createLabel, updateLabel } from "../lib/services/annotation/save-label.ts";
import { createQueue } from "../lib/services/annotation/manage-queues.ts";
import { completeQueueItem, nextQueueItem, submitQueueLabel } from "../lib/services/annotation/work-queue.ts";
import { findLabel } from "../lib/db/repositories/annotation/labels.ts";
import { isAppError } from "../lib/errors.ts";
import type { ServiceContext } from "../lib/services/context.ts";

const args = process.argv.slice(2);
const SECONDS = Number(args[args.indexOf("--seconds") + 1] || process.env.BENCH_SECONDS || 60) || 60;
const ANNOTATORS = 50;
const THINK_MS = Number(args[args.indexOf("--think-ms") + 1] || 0) || 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const QUEUE_ITEMS = Number(args[args.indexOf("--queue-items") + 1] || 0) || 100_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function bench(provider: Provider): Promise<void> {
  const t = await createTestDatabase(provider);
  try {
    await seedDemo(t.ctx, { count: 40, seed: 11 });
    // --sync-normal: what the figures are with SQLite's synchronous=NORMAL (WAL), i.e. without an fsync per commit.
    if (provider === "sqlite" && args.includes("--sync-normal")) await t.db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    if (provider === "sqlite")
      console.log(
        `  (sqlite journal_mode ${JSON.stringify(await t.db.$queryRawUnsafe("PRAGMA journal_mode"))}, synchronous ${String(Object.values(((await t.db.$queryRawUnsafe("PRAGMA synchronous")) as Record<string, unknown>[])[0] ?? {})[0])})`,
      );
    const trajs = await t.db.trajectory.findMany({
      where: { parentId: null, stepCount: { gte: 4 } },
      select: { id: true, stepCount: true },
    });
    const people: ServiceContext[] = [];
    for (let i = 0; i < ANNOTATORS; i++) people.push(await t.as(`bench-${i}`, "annotator"));

    // --- 1. concurrent submissions ---
    const values = ["command-error", "hang", "timeout", "test-failure", "runtime-exception"];
    const latencies: number[] = [];
    let created = 0;
    let updated = 0;
    let conflicts = 0;
    let timedOut = 0;
    // --next-only: skip the submission phase (one label is written for the baseline read).
    const deadline = Date.now() + (args.includes("--next-only") ? 0 : SECONDS * 1000);
    if (args.includes("--next-only"))
      await createLabel(people[0]!, { trajectory: trajs[0]!.id, schema: "error-category", value: "hang", target: { steps: [0, 0] } });
    let seed = 1;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    await Promise.all(
      people.map(async (ctx) => {
        const mine = new Map<string, { id: string; version: number }>();
        while (Date.now() < deadline) {
          const tr = trajs[rand(trajs.length)]!;
          const a = rand(Math.min(tr.stepCount, 6));
          const key = `${tr.id}:${a}`;
          const value = values[rand(values.length)]!;
          const start = performance.now();
          try {
            const have = mine.get(key);
            if (have) {
              const l = await updateLabel(ctx, { id: have.id, version: have.version, value });
              mine.set(key, { id: l.id, version: l.version });
              updated++;
            } else {
              const l = await createLabel(ctx, { trajectory: tr.id, schema: "error-category", value, target: { steps: [a, a] } });
              mine.set(key, { id: l.id, version: l.version });
              created++;
            }
            latencies.push(performance.now() - start);
          } catch (e) {
            if (isAppError(e) && e.code === "CONFLICT") conflicts++;
            // A loaded machine can make the pool wait past Prisma's transaction start limit: count it, keep going.
            else if ((e as { code?: string }).code === "P2028") timedOut++;
            else throw e;
          }
        }
      }),
    );
    const stored = await t.db.annotation.count();
    const events = await t.db.annotationEvent.count();
    const countSum = (await t.db.trajectory.aggregate({ _sum: { annotationCount: true } }))._sum.annotationCount ?? 0;
    const distinct = (await t.db.annotation.groupBy({ by: ["schemaId", "annotatorId", "targetKey"] })).length;

    // Baseline: a primary-key read of one label, the cheapest thing the database does for us.
    const anyLabel = (await t.db.annotation.findFirstOrThrow({ select: { id: true } })).id;
    const base: number[] = [];
    for (let i = 0; i < 300; i++) {
      const s = performance.now();
      await findLabel(t.db, anyLabel);
      base.push(performance.now() - s);
    }
    const b50 = pct(base, 50);
    console.log(`\n[${provider}] ${ANNOTATORS} annotators × ${SECONDS} s`);
    console.log(
      `  submitted ${created + updated} (created ${created}, changed ${updated}), refused ${conflicts}, transaction start timed out ${timedOut}; stored labels ${stored} (distinct targets ${distinct}), history rows ${events}, Σ annotationCount ${countSum}`,
    );
    console.log(
      `  lost ${created - stored}, duplicated ${stored - distinct}; history complete: ${events === created + updated}; counts agree: ${countSum === stored}`,
    );
    console.log(
      `  submit latency p50 ${ms(pct(latencies, 50))} (${(pct(latencies, 50) / b50).toFixed(1)}× baseline), p95 ${ms(pct(latencies, 95))} (${(pct(latencies, 95) / b50).toFixed(1)}×); throughput ${((created + updated) / SECONDS).toFixed(0)} labels/s; baseline PK read p50 ${ms(b50)}`,
    );

    // --- 2. next item on a 10^5-item queue ---
    const run = await t.db.run.create({ data: { name: "bench-queue-run" } });
    const task = await t.db.task.create({ data: { benchmark: "bench", externalId: "bench-queue", name: "bench queue task" } });
    for (let i = 0; i < QUEUE_ITEMS; i += 5000) {
      await t.db.trajectory.createMany({
        data: Array.from({ length: Math.min(5000, QUEUE_ITEMS - i) }, (_, j) => ({
          contentHash: `bench-q-${i + j}`,
          taskId: task.id,
          runId: run.id,
          sourceFormat: "bench",
          outcome: "failed",
        })),
      });
    }
    const qStart = performance.now();
    const queue = await createQueue(t.ctx, {
      name: "bench-queue",
      filter: `runId=${run.id}`,
      schemas: ["error-category"],
      labelsPerItem: 1,
      assignees: people.map((p) => p.actor.name),
    });
    const createMs = performance.now() - qStart;
    // The first half is finished already: "next" must find the first open item without walking past them.
    await t.db.queueItem.updateMany({ where: { queueId: queue.id, position: { lt: QUEUE_ITEMS / 2 } }, data: { doneCount: 1 } });
    // Both strategies on the same queue, rounds alternating so machine load hits them alike: "first" (everyone starts
    // at the first free item — the old behaviour) and "spread" (each annotator tries the candidates in its own order).
    const nextLat: Record<"first" | "spread", number[]> = { first: [], spread: [] };
    const rounds = 20;
    for (let r = 0; r < rounds; r++) {
      const strategy: "first" | "spread" = r % 2 === 0 ? "first" : "spread";
      const slots = await Promise.all(
        people.map(async (ctx) => {
          const s = performance.now();
          const slot = await nextQueueItem(ctx, queue.id, new Date(), strategy);
          nextLat[strategy].push(performance.now() - s);
          return { ctx, slot };
        }),
      );
      const itemIds = slots.map((x) => x.slot?.itemId);
      if (new Set(itemIds).size !== itemIds.length) throw new Error("two annotators got the same item");
      // Finish them (each needs a label first) so the next round reserves fresh items.
      await Promise.all(
        slots.map(async ({ ctx, slot }) => {
          await createLabel(ctx, { trajectory: slot!.trajectoryId, schema: "error-category", value: "timeout" });
          await completeQueueItem(ctx, slot!.slotId);
        }),
      );
    }
    // One annotator alone: the cost of "next" itself on the big queue, without 49 others queued on the same database.
    const solo: number[] = [];
    for (let i = 0; i < 100; i++) {
      const s = performance.now();
      const slot = await nextQueueItem(people[0]!, queue.id);
      solo.push(performance.now() - s);
      await createLabel(people[0]!, { trajectory: slot!.trajectoryId, schema: "error-category", value: "hang" });
      await completeQueueItem(people[0]!, slot!.slotId);
    }
    console.log(
      `  "next item" alone (100 calls): p50 ${ms(pct(solo, 50))}, p95 ${ms(pct(solo, 95))} (${(pct(solo, 95) / b50).toFixed(1)}× baseline)`,
    );
    console.log(
      `  queue of ${queue.itemCount} items created from a filter in ${(createMs / 1000).toFixed(1)} s; "next item" 50 concurrent, first half done:`,
    );
    for (const k of ["first", "spread"] as const) {
      const xs = nextLat[k];
      console.log(
        `    ${k.padEnd(6)} (${xs.length} calls) p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))} (${(pct(xs, 95) / b50).toFixed(1)}× baseline)`,
      );
    }
    console.log(`    spread/first p95 ratio ${(pct(nextLat.spread, 95) / pct(nextLat.first, 95)).toFixed(2)}`);

    // --- 3. next item + submit in one call, 50 annotators for SECONDS ---
    // Twice: paced (each annotator thinks THINK_MS between submissions — a fast keyboard annotator; what 50 people
    // labelling at once look like to the server) and closed loop (no pause at all: a stress figure, the latency is
    // then mostly the queue of 49 other calls in front of each one).
    for (const think of [THINK_MS, 0]) {
      const labelsBefore = await t.db.annotation.count();
      const workLat: number[] = [];
      const failures: string[] = [];
      let submitted = 0;
      const until = Date.now() + SECONDS * 1000;
      await Promise.all(
        people.map(async (ctx, i) => {
          // Staggered starts, as people do not press Enter in step.
          if (think) await sleep((i * think) / ANNOTATORS);
          let slot = await nextQueueItem(ctx, queue.id);
          while (slot && Date.now() < until) {
            if (think) await sleep(think * (0.5 + Math.random()));
            const s = performance.now();
            try {
              const r = await submitQueueLabel(ctx, slot.slotId, {
                trajectory: slot.trajectoryId,
                schema: "error-category",
                value: "hang",
              });
              workLat.push(performance.now() - s);
              submitted++;
              slot = r.next;
            } catch (e) {
              failures.push((e as Error).message.slice(0, 120));
              slot = await nextQueueItem(ctx, queue.id);
            }
          }
        }),
      );
      const storedNow = (await t.db.annotation.count()) - labelsBefore;
      const doubles = await t.db.queueSlot.groupBy({
        by: ["itemId"],
        where: { queueId: queue.id, slot: { not: null } },
        _count: { _all: true },
        having: { itemId: { _count: { gt: 1 } } },
      });
      const how = think ? `paced (think ${think} ms ± 50 %)` : "closed loop (no think time)";
      console.log(
        `  next item + submit (one call), ${ANNOTATORS} annotators × ${SECONDS} s, ${how}, on the ${queue.itemCount}-item queue: ${workLat.length} calls (${(workLat.length / SECONDS).toFixed(1)}/s), p50 ${ms(pct(workLat, 50))}, p95 ${ms(pct(workLat, 95))} (${(pct(workLat, 95) / b50).toFixed(1)}× baseline)`,
      );
      console.log(
        `    submitted ${submitted}, stored ${storedNow} → lost ${submitted - storedNow}; double reservations ${doubles.length}; failed submissions ${failures.length}${failures.length ? ` (${[...new Set(failures)].slice(0, 3).join(" | ")})` : ""}`,
      );
    }
  } finally {
    await t.drop();
  }
}

const { loadavg } = await import("node:os");
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
if (!args.includes("--skip-sqlite")) await bench("sqlite");
if (!args.includes("--skip-pg")) {
  if (postgres.available) await bench("postgresql");
  else console.log(`[postgresql] skipped: ${postgres.reason}`);
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
