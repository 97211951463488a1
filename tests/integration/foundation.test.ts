import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db";
import { migrateDeploy, migrateStatus } from "@/lib/db/migrations";
import { seedDemo } from "@/lib/services/system/seed-demo";
import { getStats } from "@/lib/services/browse/get-stats";
import { listTrajectories } from "@/lib/services/browse/browse-trajectories";
import { getSteps, getTrajectory } from "@/lib/services/browse/view-trajectory";
import { trajectoryListQuerySchema } from "@/lib/validation/search-params";
import { generateTrajectories } from "@/lib/generator/generate";
import { createDb } from "@/lib/db/client";
import { refreshForkCounts } from "@/lib/db/repositories/forks";
import { AppError } from "@/lib/errors";

describe.each(PROVIDERS)("foundation on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  // That the committed migrations produce exactly prisma/models.prisma is checked by `npm run db:check` (CI), with
  // Prisma's schema engine, which tests never load.
  it.skipIf(skip)("applies migrations once and then reports nothing pending", async () => {
    expect(await migrateDeploy(t.config)).toEqual({ applied: [], unknown: [] });
    expect(await migrateStatus(t.config)).toEqual({ pending: [], problems: [], unknown: [] });
  });

  it.skipIf(skip)("seeds demo data idempotently, with fork points and attempts linked to parents", async () => {
    const first = await seedDemo(t.ctx, { count: 60, seed: 7 });
    expect(first).toMatchObject({ imported: 60, duplicates: 0, failed: 0 });
    const again = await seedDemo(t.ctx, { count: 60, seed: 7 });
    expect(again).toMatchObject({ imported: 0, duplicates: 60, failed: 0 });

    const expected = [...generateTrajectories({ count: 60, seed: 7 })];
    const stats = await getStats(t.ctx);
    expect(stats.trajectories).toBe(60);
    expect(stats.steps).toBe(expected.reduce((n, x) => n + x.steps.length, 0));
    expect(stats.tasks).toBe(new Set(expected.map((x) => x.task.id)).size);
    expect(stats.runs).toBe(new Set(expected.map((x) => x.run.name)).size);
    const parents = new Set(expected.filter((x) => x.fork).map((x) => `${x.fork!.parentId}@${x.fork!.stepIndex}`));
    expect(stats.forkPoints).toBe(parents.size);
    expect(stats.forkPoints).toBeGreaterThan(0);

    const attempt = expected.find((x) => x.fork)!;
    const parentRow = await t.db.trajectory.findUniqueOrThrow({ where: { externalId: attempt.fork!.parentId } });
    const detail = await getTrajectory(t.ctx, parentRow.id);
    expect(detail.forkPoints).toHaveLength(1);
    const siblings = expected.filter((x) => x.fork?.parentId === attempt.fork!.parentId);
    expect(detail.forkPoints[0]!.attempts).toHaveLength(siblings.length);
    expect(detail.forkPoints[0]!.stepIndex).toBe(attempt.fork!.stepIndex);
    const refreshed = await t.db.trajectory.findUniqueOrThrow({ where: { id: parentRow.id } });
    expect(refreshed.attemptCount).toBe(siblings.length);
    expect(refreshed.recoveryRate).toBeCloseTo(
      siblings.filter((s) => s.outcome === "passed").length / siblings.filter((s) => s.outcome !== "unknown").length,
    );
    // An attempt whose outcome becomes unknown leaves the rate's denominator (refreshForkCounts, the one-by-one path).
    const sibling = await t.db.trajectory.findFirstOrThrow({ where: { parentId: parentRow.id, outcome: { not: "unknown" } } });
    await t.db.trajectory.update({ where: { id: sibling.id }, data: { outcome: "unknown" } });
    await refreshForkCounts(t.db, parentRow.id);
    const known = await t.db.trajectory.count({ where: { parentId: parentRow.id, outcome: { not: "unknown" } } });
    const passedNow = await t.db.trajectory.count({ where: { parentId: parentRow.id, outcome: "passed" } });
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: parentRow.id } })).recoveryRate).toBe(known ? passedNow / known : null);
  });

  it.skipIf(skip)("lists pages sorted by the requested column and reads steps in ranges", async () => {
    const q = trajectoryListQuerySchema.parse({ sort: "stepCount", dir: "asc", perPage: 10 });
    const page = await listTrajectories(t.ctx, q);
    expect(page.total).toBe(60);
    expect(page.rows).toHaveLength(10);
    const counts = page.rows.map((r) => r.stepCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const failed = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ outcome: "failed", perPage: 100 }));
    expect(failed.rows.every((r) => r.outcome === "failed")).toBe(true);

    const row = page.rows.at(-1)!;
    const steps = await getSteps(t.ctx, row.id, 1, 3);
    expect(steps.map((s) => s.index)).toEqual([1, 2]);
    expect(steps[0]!.action).toBeTruthy();
  });

  it.skipIf(skip)("stores detected errors as suggestions on the failing step", async () => {
    const withError = await t.db.detectedError.findFirstOrThrow({ include: { trajectory: { include: { steps: true } } } });
    const step = withError.trajectory.steps.find((s) => s.index === withError.stepIndex)!;
    expect(step.isError).toBe(true);
    expect(withError.trajectory.firstErrorCategory).toBeTruthy();
  });

  it.skipIf(skip)("refuses imports from a viewer and reads from anyone", async () => {
    const viewer = await t.as("vera", "viewer");
    await expect(seedDemo(viewer, { count: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getStats(viewer)).resolves.toMatchObject({ trajectories: 60 });
  });

  it.skipIf(skip)("answers NOT_FOUND for an unknown trajectory", async () => {
    await expect(getTrajectory(t.ctx, "nope")).rejects.toBeInstanceOf(AppError);
  });
});

describe("sqlite database path errors", () => {
  it("names a corrupt database file instead of crashing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-corrupt-"));
    const file = path.join(dir, "bad.db");
    fs.writeFileSync(file, "this is not a database at all, just text");
    expect(() => createDb({ provider: "sqlite", file, url: `file:${file}` })).toThrow(/not an SQLite database/);
  });

  it("names an unwritable location", () => {
    expect(() => createDb({ provider: "sqlite", file: "/proc/reterm/x.db", url: "file:/proc/reterm/x.db" })).toThrow(
      /Cannot create the database folder|not writable/,
    );
  });
});
