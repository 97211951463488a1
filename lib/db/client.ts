// The one place a Prisma client is created. Everything outside lib/db talks to repositories, never to Prisma.
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { PrismaClient as PgClient } from "./generated/postgres/client.ts";
import { getEnv, type DatabaseConfig } from "../env.ts";
import { AppError } from "../errors.ts";

/**
 * Both generated clients expose the same API (one model definition); we type against the SQLite one.
 * The PostgreSQL client is nominally different, so it is cast once, here.
 */
export type Db = SqliteClient;
export type { Prisma } from "./generated/sqlite/client.ts";

/**
 * mkdir -p, one level at a time from the nearest existing ancestor. (fs.mkdirSync's recursive mode can spin
 * forever on pseudo file systems such as /proc, so it is not used.)
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  let cur = path.resolve(dir);
  while (!fs.existsSync(cur)) {
    missing.unshift(cur);
    const up = path.dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  if (!fs.statSync(cur).isDirectory()) throw new Error(`${cur} is not a directory`);
  for (const d of missing) fs.mkdirSync(d);
}

/** Make sure an SQLite file can be created/opened, and say exactly what is wrong when it cannot. */
export function assertSqliteFileUsable(file: string): void {
  const dir = path.dirname(file);
  try {
    makeDirs(dir);
  } catch (e) {
    throw new AppError("DB_UNAVAILABLE", `Cannot create the database folder ${dir}: ${(e as Error).message}`);
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    if (fs.existsSync(file)) fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    throw new AppError("DB_UNAVAILABLE", `The SQLite database ${file} is not writable (check permissions or set DATABASE_URL).`);
  }
  if (fs.existsSync(file) && fs.statSync(file).size > 0) {
    const fd = fs.openSync(file, "r");
    const header = Buffer.alloc(16);
    fs.readSync(fd, header, 0, 16, 0);
    fs.closeSync(fd);
    if (header.toString("latin1") !== "SQLite format 3\u0000") {
      throw new AppError(
        "DB_UNAVAILABLE",
        `${file} is not an SQLite database (corrupt or another kind of file). Move it away or point DATABASE_URL elsewhere.`,
      );
    }
  }
}

// On globalThis: Next.js may bundle this module into several server chunks, and a client made by one copy must be
// known to the others (configOf is called from wherever a service runs).
const globalConfigs = globalThis as unknown as { __retermDbConfigs?: WeakMap<Db, DatabaseConfig> };
const configs = (globalConfigs.__retermDbConfigs ??= new WeakMap<Db, DatabaseConfig>());

// The app's SQLite connection keeps up to 128 MiB of database pages (PostgreSQL's default shared_buffers) instead of
// SQLite's 2 MiB. The browser's facet counts and pages at 10^5 trajectories read ~100 MiB of index pages per request;
// with the default cache every request re-read them through the OS (measured: 352 → 205 ms of CPU for one facet
// request plus one filtered page, bench/browser.ts data). Memory is taken only as pages are read.
const SQLITE_PAGE_CACHE_KIB = 128 * 1024;

/** The Prisma adapter factory, with the page cache set on the connection it opens. */
class TunedSqliteAdapter extends PrismaBetterSqlite3 {
  override async connect(): ReturnType<PrismaBetterSqlite3["connect"]> {
    const adapter = await super.connect();
    await adapter.executeScript(`PRAGMA cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
    return adapter;
  }
}

/** The driver adapters every client of the app uses (createDb; the query-plan diagnostics' logged client). */
export function sqliteAdapter(file: string): PrismaBetterSqlite3 {
  return new TunedSqliteAdapter({ url: file, timeout: 15_000 });
}

// JIT off for the app's connections: its queries are short aggregates over narrow indexes that PostgreSQL costs above
// jit_above_cost, and compiling them took 35–80 ms a call (the browser's fork-category facet, the recovery analytics)
// for no gain at these sizes. Options in DATABASE_URL still win (pg merges the URL over this).
export function pgAdapter(url: string): PrismaPg {
  return new PrismaPg({ connectionString: url, max: 10, options: "-c jit=off" });
}

export function createDb(config: DatabaseConfig): Db {
  let db: Db;
  if (config.provider === "sqlite") {
    assertSqliteFileUsable(config.file);
    db = new SqliteClient({ adapter: sqliteAdapter(config.file) });
  } else {
    db = new PgClient({ adapter: pgAdapter(config.url) }) as unknown as Db;
  }
  configs.set(db, config);
  return db;
}

/** The configuration a client was created with (the bulk writer opens its own driver connection from it). */
export function configOf(db: Db): DatabaseConfig {
  const c = configs.get(db);
  if (!c) throw new Error("configOf: client was not created by createDb");
  return c;
}

const globalForDb = globalThis as unknown as { __retermDb?: Db; __retermDbConfig?: DatabaseConfig };

/** Process-wide client for the configured database (DATABASE_URL). */
export function getDb(): Db {
  if (!globalForDb.__retermDb) {
    const config = getEnv().DATABASE_URL;
    globalForDb.__retermDb = createDb(config);
    globalForDb.__retermDbConfig = config;
  }
  return globalForDb.__retermDb;
}

export function getDbConfig(): DatabaseConfig {
  return globalForDb.__retermDbConfig ?? getEnv().DATABASE_URL;
}
