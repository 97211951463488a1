// The start-up migration runner (lib/db/migrations) on both databases: it applies the committed SQL, recognises
// databases migrated by Prisma's engine (earlier releases), rolls a failed migration back and names it, refuses a
// changed or previously failed migration, and applies each migration once when two processes start together.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDeploy, migrateStatus } from "../../lib/db/migrations/index.ts";
import type { DatabaseConfig } from "../../lib/env.ts";
import { createEmptyDatabase, PROVIDERS, type Provider } from "../helpers/test-db.ts";
import { execSql, querySql, tableNames } from "../helpers/raw-sql.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const committedDir = (p: Provider) => path.join(ROOT, "prisma", p === "sqlite" ? "sqlite" : "postgres", "migrations");
const committed = (p: Provider) =>
  fs
    .readdirSync(committedDir(p), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
const sha256 = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

// `_prisma_migrations` as Prisma's schema engine (the wasm build earlier releases ran at start-up) created it,
// captured from databases it migrated: SQLite keeps the statement's text, PostgreSQL the catalog below.
const ENGINE_SQLITE_DDL = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;
const ENGINE_PG_DDL = `CREATE TABLE public._prisma_migrations (
    id character varying(36) NOT NULL,
    checksum character varying(64) NOT NULL,
    finished_at timestamp with time zone,
    migration_name character varying(255) NOT NULL,
    logs text,
    rolled_back_at timestamp with time zone,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    applied_steps_count integer DEFAULT 0 NOT NULL,
    CONSTRAINT _prisma_migrations_pkey PRIMARY KEY (id)
)`;
const ENGINE_PG_COLUMNS = [
  ["id", "character varying", "NO", null],
  ["checksum", "character varying", "NO", null],
  ["finished_at", "timestamp with time zone", "YES", null],
  ["migration_name", "character varying", "NO", null],
  ["logs", "text", "YES", null],
  ["rolled_back_at", "timestamp with time zone", "YES", null],
  ["started_at", "timestamp with time zone", "NO", "now()"],
  ["applied_steps_count", "integer", "NO", "0"],
];

/** A migrations folder for one test: copies of the first `count` committed migrations plus extra ones. */
function migrationsFolder(provider: Provider, count: number, extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-migrations-"));
  for (const name of committed(provider).slice(0, count)) {
    fs.mkdirSync(path.join(dir, name));
    fs.copyFileSync(path.join(committedDir(provider), name, "migration.sql"), path.join(dir, name, "migration.sql"));
  }
  for (const [name, sql] of Object.entries(extra)) writeMigration(dir, name, sql);
  return dir;
}

function writeMigration(dir: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
}

type Row = {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  started_at: unknown;
  applied_steps_count: number | string;
  logs: string | null;
  rolled_back_at: unknown;
};
const history = (config: DatabaseConfig) =>
  querySql<Row>(config, `SELECT * FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"`);

describe.each(PROVIDERS)("start-up migrations on $title", ({ provider, skip }) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  async function emptyDb(): Promise<DatabaseConfig> {
    const t = await createEmptyDatabase(provider);
    cleanups.push(t.drop);
    return t.config;
  }
  function folder(count: number, extra: Record<string, string> = {}): string {
    const dir = migrationsFolder(provider, count, extra);
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it.skipIf(skip)("applies every committed migration to a fresh database and records them as Prisma Migrate does", async () => {
    const config = await emptyDb();
    const names = committed(provider);
    expect(await migrateStatus(config)).toEqual({ pending: names, problems: [], unknown: [] });
    expect(await migrateDeploy(config)).toEqual({ applied: names, unknown: [] });

    const rows = await history(config);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const r of rows) {
      expect(r.checksum).toBe(sha256(fs.readFileSync(path.join(committedDir(provider), r.migration_name, "migration.sql"))));
      expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Number(r.applied_steps_count)).toBe(1);
      expect(r.logs).toBeNull();
      expect(r.rolled_back_at).toBeNull();
      expect(new Date(r.finished_at as string).getTime()).toBeGreaterThanOrEqual(new Date(r.started_at as string).getTime());
    }
    if (provider === "sqlite") {
      const [t] = await querySql<{ sql: string }>(config, `SELECT sql FROM sqlite_master WHERE name = '_prisma_migrations'`);
      expect(t!.sql).toBe(ENGINE_SQLITE_DDL);
      // The engine's timestamp text: RFC 3339 with milliseconds and an explicit offset.
      expect(rows[0]!.finished_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    } else {
      const cols = await querySql<{ column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
        config,
        `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      );
      expect(cols.map((c) => [c.column_name, c.data_type, c.is_nullable, c.column_default])).toEqual(ENGINE_PG_COLUMNS);
    }
    expect(await migrateDeploy(config)).toEqual({ applied: [], unknown: [] });
    expect((await history(config)).length).toBe(names.length);
  });

  it.skipIf(skip)("recognises a database Prisma's engine migrated and applies only what it lacks", async () => {
    const config = await emptyDb();
    const names = committed(provider);
    const done = names.slice(0, -2);
    // As the engine left it: its table, each migration's script run as is, a row per migration in its format.
    await execSql(config, provider === "sqlite" ? ENGINE_SQLITE_DDL : ENGINE_PG_DDL);
    let clock = Date.parse("2026-12-01T10:00:00Z");
    for (const name of done) {
      const sql = fs.readFileSync(path.join(committedDir(provider), name, "migration.sql"), "utf8");
      await execSql(config, sql);
      const at = (ms: number) => (provider === "sqlite" ? new Date(ms).toISOString().replace("Z", "+00:00") : new Date(ms));
      await querySql(
        config,
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
        [crypto.randomUUID(), sha256(sql), at(clock + 500), name, at(clock)],
      );
      clock += 1000;
    }
    expect(await migrateStatus(config)).toEqual({ pending: names.slice(-2), problems: [], unknown: [] });
    expect(await migrateDeploy(config)).toEqual({ applied: names.slice(-2), unknown: [] });
    expect((await history(config)).map((r) => r.migration_name)).toEqual(names);
    expect(await migrateStatus(config)).toEqual({ pending: [], problems: [], unknown: [] });
  });

  it.skipIf(skip)("rolls a failing migration back, names it and its file, and applies it once it is fixed", async () => {
    const config = await emptyDb();
    const broken = "20991231000000_broken";
    const good = `CREATE TABLE "Probe" ("id" INTEGER);\nINSERT INTO "Probe" ("id") VALUES (1);\n`;
    const dir = folder(2, { [broken]: `${good}INSERT INTO "NoSuchTable" ("id") VALUES (1);\n` });
    const names = committed(provider).slice(0, 2);

    const err = await migrateDeploy(config, { dir }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`Migration ${broken} failed on ${provider} (${path.join(dir, broken, "migration.sql")}`);
    expect(err?.message).toMatch(/NoSuchTable/);
    if (provider === "postgresql") expect(err?.message).toMatch(/migration\.sql line 3\)/);
    // The migrations before it stay applied (one transaction each); nothing of the failed one remains.
    expect((await history(config)).map((r) => r.migration_name)).toEqual(names);
    expect(await tableNames(config)).not.toContain("Probe");
    expect(await migrateStatus(config, { dir })).toEqual({ pending: [broken], problems: [], unknown: [] });

    writeMigration(dir, broken, good);
    expect(await migrateDeploy(config, { dir })).toEqual({ applied: [broken], unknown: [] });
    expect(await querySql(config, `SELECT "id" FROM "Probe"`)).toEqual([{ id: 1 }]);
  });

  it.skipIf(skip)("leaves a fresh database empty when its first migration fails", async () => {
    const config = await emptyDb();
    const dir = folder(0, { "20990101000000_first": `CREATE TABLE "Probe" ("id" INTEGER);\nSELECT * FROM "NoSuchTable";\n` });
    await expect(migrateDeploy(config, { dir })).rejects.toThrow(/Migration 20990101000000_first failed/);
    expect(await tableNames(config)).toEqual([]);
  });

  it.skipIf(skip)("refuses a migration whose file changed after it was applied, and accepts other line endings", async () => {
    const config = await emptyDb();
    const dir = folder(2);
    const [, second] = committed(provider);
    await migrateDeploy(config, { dir });
    const file = path.join(dir, second!, "migration.sql");
    const original = fs.readFileSync(file, "utf8");

    fs.writeFileSync(file, `${original}\n-- edited after release\n`);
    await expect(migrateDeploy(config, { dir })).rejects.toThrow(new RegExp(`Migration ${second} was changed after it was applied`));
    const status = await migrateStatus(config, { dir });
    expect(status.problems).toHaveLength(1);
    expect(status.problems[0]).toContain(second);

    fs.writeFileSync(file, original.replace(/\n/g, "\r\n")); // a Windows checkout: Prisma accepts it, so do we
    expect(await migrateStatus(config, { dir })).toEqual({ pending: [], problems: [], unknown: [] });
  });

  it.skipIf(skip)("refuses to start while a migration is recorded as failed, until it is marked rolled back", async () => {
    const config = await emptyDb();
    const [, , third] = committed(provider);
    await migrateDeploy(config, { dir: folder(2) });
    // What Prisma's engine leaves when a migration fails half-way: a row that never finished.
    await querySql(
      config,
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "logs", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, 0)`,
      [crypto.randomUUID(), "0".repeat(64), third, "Database error: duplicate column"],
    );
    await expect(migrateDeploy(config)).rejects.toThrow(
      new RegExp(`Migration ${third} failed earlier .*duplicate column.*mark the attempt rolled back`),
    );
    expect((await migrateStatus(config)).problems).toEqual([expect.stringContaining(third!)]);

    await querySql(config, `UPDATE "_prisma_migrations" SET "rolled_back_at" = CURRENT_TIMESTAMP WHERE "finished_at" IS NULL`);
    expect((await migrateDeploy(config)).applied).toEqual(committed(provider).slice(2));
  });

  it.skipIf(skip)("refuses a database that holds tables but no migration history, and reports migrations it does not know", async () => {
    const other = await emptyDb();
    await execSql(other, `CREATE TABLE "Elsewhere" ("id" INTEGER)`);
    await expect(migrateDeploy(other)).rejects.toThrow(/holds tables \(Elsewhere\) but no migration history/);
    expect(await tableNames(other)).toEqual(["Elsewhere"]);

    const newer = await emptyDb();
    await migrateDeploy(newer, { dir: folder(1) });
    await querySql(
      newer,
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES (?, ?, CURRENT_TIMESTAMP, ?, CURRENT_TIMESTAMP, 1)`,
      [crypto.randomUUID(), "0".repeat(64), "20991231000000_from_a_newer_release"],
    );
    expect(await migrateStatus(newer, { dir: folder(1) })).toEqual({
      pending: [],
      problems: [],
      unknown: ["20991231000000_from_a_newer_release"],
    });
  });

  it.skipIf(skip || provider !== "sqlite")(
    "keeps SQLite's foreign keys whole: enforced, or checked before commit when a migration turns them off",
    async () => {
      const config = await emptyDb();
      const orphan = `INSERT INTO "Step" ("trajectoryId", "index", "source", "contentHash") VALUES ('no-such-trajectory', 0, 'agent', 'h');\n`;
      const dir = folder(1, { "20990101000000_orphan": orphan });
      await expect(migrateDeploy(config, { dir })).rejects.toThrow(
        /Migration 20990101000000_orphan failed on sqlite .*FOREIGN KEY constraint failed/,
      );
      writeMigration(
        dir,
        "20990101000000_orphan",
        `PRAGMA defer_foreign_keys=ON;\nPRAGMA foreign_keys=OFF;\n${orphan}PRAGMA foreign_keys=ON;\nPRAGMA defer_foreign_keys=OFF;\n`,
      );
      await expect(migrateDeploy(config, { dir })).rejects.toThrow(
        /Migration 20990101000000_orphan failed on sqlite .*1 row\(s\) whose foreign key points nowhere \(first: Step → Trajectory\)/,
      );
      expect(await querySql(config, `SELECT COUNT(*) AS n FROM "Step"`)).toEqual([{ n: 0 }]);
      expect((await history(config)).map((r) => r.migration_name)).toEqual(committed(provider).slice(0, 1));
    },
  );

  it.skipIf(skip)(
    "applies each migration once when two processes start on the same database at the same moment",
    async () => {
      const config = await emptyDb();
      // A slow first migration keeps the first process inside its transaction while the second one arrives.
      const slow =
        provider === "sqlite"
          ? `CREATE TABLE "Slow" ("x" INTEGER);\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 400000) INSERT INTO "Slow" SELECT x FROM c;\n`
          : `CREATE TABLE "Slow" ("x" INTEGER);\nSELECT pg_sleep(0.7);\n`;
      const dir = folder(3, { "00000000000000_slow": slow });
      const expected = ["00000000000000_slow", ...committed(provider).slice(0, 3)];
      const go = path.join(dir, "go");

      const children = [0, 1].map(() => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", path.join(ROOT, "tests/helpers/migrate-child.ts"), JSON.stringify(config), dir, go],
          { cwd: ROOT },
        );
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => (out += d));
        child.stderr.on("data", (d: Buffer) => (err += d));
        const ready = new Promise<void>((resolve, reject) => {
          child.stdout.on("data", () => out.includes("ready") && resolve());
          child.on("exit", () => reject(new Error(`child exited before it was ready: ${err}`)));
        });
        const done = new Promise<{ ok: boolean; applied?: string[]; error?: string }>((resolve, reject) =>
          child.on("exit", (code) =>
            code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!)) : reject(new Error(`child failed (${code}): ${err}`)),
          ),
        );
        return { ready, done };
      });
      await Promise.all(children.map((c) => c.ready));
      fs.writeFileSync(go, "");
      const results = await Promise.all(children.map((c) => c.done));

      expect(results.map((r) => r.error ?? "")).toEqual(["", ""]);
      const applied = results.flatMap((r) => r.applied ?? []);
      expect([...applied].sort()).toEqual(expected); // every migration applied, none twice
      expect((await history(config)).map((r) => r.migration_name).sort()).toEqual(expected);
    },
    120_000,
  );
});
