// A database left by any earlier release gets the migrations added since, on start-up, without losing its data.
// Earlier releases' schemas are built by applying that release's migrations (a prefix of today's committed ones:
// committed migrations never change) with the start-up runner.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { migrateDeploy } from "../../lib/db/migrations/index.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { createEmptyDatabase, createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "../helpers/test-db.ts";
import { execSql } from "../helpers/raw-sql.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const committedDir = (p: Provider) => path.join(ROOT, "prisma", p === "sqlite" ? "sqlite" : "postgres", "migrations");
const committed = (p: Provider) =>
  fs
    .readdirSync(committedDir(p), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** The migrations folder of the release whose last migration was the `count`-th one. */
function releaseFolder(provider: Provider, count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-release-"));
  for (const name of committed(provider).slice(0, count)) {
    fs.mkdirSync(path.join(dir, name));
    fs.copyFileSync(path.join(committedDir(provider), name, "migration.sql"), path.join(dir, name, "migration.sql"));
  }
  return dir;
}

// Rows every release's schema can hold (the first migration's columns): a trajectory with steps. Later migrations
// rebuild the Trajectory table on SQLite; its steps must survive that (they cascade on delete).
const OLD_ROWS = `
INSERT INTO "Task" ("id", "benchmark", "externalId", "name") VALUES ('task-old', 'bench', 'task-ext', 'An old task');
INSERT INTO "Run" ("id", "name") VALUES ('run-old', 'an-old-run');
INSERT INTO "Trajectory" ("id", "contentHash", "taskId", "runId", "sourceFormat") VALUES ('traj-old', 'hash-old', 'task-old', 'run-old', 'reterm');
INSERT INTO "Step" ("trajectoryId", "index", "source", "contentHash") VALUES ('traj-old', 0, 'agent', 'step-0'), ('traj-old', 1, 'agent', 'step-1');
`;

describe.each(PROVIDERS)("upgrading a database on $title", ({ provider, skip }) => {
  let t: TestDatabase | undefined;
  afterAll(async () => {
    await t?.drop();
  });

  const releases = skip
    ? []
    : committed(provider)
        .slice(0, -1)
        .map((last, i) => ({ count: i + 1, last }));
  it.skipIf(skip).each(releases)("from the release that ended at $last: applies what came after and keeps its rows", async ({ count }) => {
    const { config, drop } = await createEmptyDatabase(provider);
    const dir = releaseFolder(provider, count);
    try {
      expect((await migrateDeploy(config, { dir })).applied).toHaveLength(count);
      await execSql(config, OLD_ROWS);

      const r = await setupDatabase(config);
      expect(r.applied).toEqual(committed(provider).slice(count));
      const db = createDb(config);
      try {
        const traj = await db.trajectory.findUniqueOrThrow({
          where: { id: "traj-old" },
          include: { steps: { orderBy: { index: "asc" } }, task: true, run: true },
        });
        expect(traj.steps.map((s) => s.contentHash)).toEqual(["step-0", "step-1"]);
        expect([traj.task.name, traj.run.name]).toEqual(["An old task", "an-old-run"]);
      } finally {
        await db.$disconnect();
      }
      expect((await setupDatabase(config)).applied).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await drop();
    }
  });

  it.skipIf(skip)("applies a migration added since the database was created and keeps what it holds", async () => {
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 3 });
    const before = await t.db.trajectory.count();
    // Roll the database back to how an earlier release left it: without the replay-layout migration.
    await t.db.$executeRawUnsafe(`DROP TABLE "ReplayLayout"`);
    await t.db.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE "migration_name" LIKE '%_replay_layout'`);
    await t.db.$disconnect(); // as at start-up: nothing else has the database open

    const r = await setupDatabase(t.config);
    expect(r.applied).toEqual([expect.stringMatching(/^\d{14}_replay_layout$/)]);
    const db = createDb(t.config);
    try {
      expect(await db.trajectory.count()).toBe(before);
      expect(await db.replayLayout.count()).toBe(0);
      expect((await setupDatabase(t.config)).applied).toEqual([]);
    } finally {
      await db.$disconnect();
    }
  });
});
