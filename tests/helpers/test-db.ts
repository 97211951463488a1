// Fresh, migrated databases for integration tests: a temp SQLite file, or a new PostgreSQL database on the
// server at TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres), dropped afterwards.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../../lib/env.ts";
import { createDb, type Db } from "../../lib/db/client.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { ensureUser } from "../../lib/db/repositories/accounts/users.ts";
import { stopReplayWork } from "../../lib/services/replay/index.ts";
import { stopJobWorker } from "../../lib/services/jobs/start-worker.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import type { Role } from "../../lib/domain/authz.ts";

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function probePostgres(): Promise<{ available: boolean; reason: string }> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { available: true, reason: "" };
  } catch (e) {
    return {
      available: false,
      reason: `no PostgreSQL server at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, "//")} (${(e as Error).message}); set TEST_DATABASE_URL to run these tests`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const postgres = await probePostgres();
if (!postgres.available) console.warn(`[integration] PostgreSQL tests skipped: ${postgres.reason}`);

export type Provider = DatabaseConfig["provider"];
export const PROVIDERS: { provider: Provider; skip: boolean; title: string }[] = [
  { provider: "sqlite", skip: false, title: "sqlite" },
  {
    provider: "postgresql",
    skip: !postgres.available,
    title: postgres.available ? "postgresql" : `postgresql (skipped: ${postgres.reason})`,
  },
];

export interface TestDatabase {
  config: DatabaseConfig;
  db: Db;
  ctx: ServiceContext;
  /** Context for another user with the given role. */
  as(name: string, role: Role): Promise<ServiceContext>;
  drop(): Promise<void>;
}

/** A new, empty database (no tables, no migration history) and a way to drop it. */
export async function createEmptyDatabase(provider: Provider): Promise<{ config: DatabaseConfig; drop: () => Promise<void> }> {
  // RETERM_TEST_DB_PREFIX: engineers sharing one PostgreSQL server keep their databases apart (e.g. reterm_wt9b).
  const name = `${process.env.RETERM_TEST_DB_PREFIX ?? "reterm_test"}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  if (provider === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-test-"));
    const file = path.join(dir, "test.db");
    return {
      config: { provider: "sqlite", file, url: `file:${file}` },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { provider: "postgresql", url: url.toString() },
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const { config, drop: dropDb } = await createEmptyDatabase(provider);
  await setupDatabase(config);
  const db = createDb(config);
  const actor = await ensureUser(db, "test-admin", "admin");
  return {
    config,
    db,
    ctx: { db, actor },
    as: async (n, role) => ({ db, actor: await ensureUser(db, n, role) }),
    drop: async () => {
      // Background replay work (keyframe builds started by a test's views) must not outlive the database.
      await stopReplayWork();
      await stopJobWorker(db);
      await db.$disconnect();
      await dropDb();
    },
  };
}
