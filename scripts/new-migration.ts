// Developer tool: write a migration for BOTH providers from prisma/models.prisma (diffed against each provider's
// migrations in a shadow database), with Prisma's schema engine (WebAssembly, a devDependency: only this script
// loads it). Needs a PostgreSQL server for the postgres diff: TEST_DATABASE_URL or
// postgresql://postgres@127.0.0.1:5432/postgres.
//   tsx scripts/new-migration.ts <name>   write prisma/<provider>/migrations/<UTC stamp>_<name>/migration.sql
//   tsx scripts/new-migration.ts --check  exit 1 when the models and the committed migrations differ (CI)
import os from "node:os";
import path from "node:path";
import type { DatabaseConfig } from "../lib/env.ts";
import { migrateCreate, migrationDiff } from "../lib/db/schema-engine.ts";

const name = process.argv[2];
if (!name || !/^(--check|[A-Za-z0-9_]+)$/.test(name)) {
  console.error("usage: tsx scripts/new-migration.ts <name>|--check  (name: letters, digits, _)");
  process.exit(2);
}
const file = path.join(os.tmpdir(), `reterm-migration-${process.pid}-${Date.now()}.db`);
const configs: DatabaseConfig[] = [
  { provider: "sqlite", file, url: `file:${file}` },
  { provider: "postgresql", url: process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
];
let drift = false;
for (const config of configs) {
  if (name === "--check") {
    const sql = await migrationDiff(config);
    if (sql) console.log(`${config.provider}: prisma/models.prisma differs from the committed migrations:\n${sql}`);
    else console.log(`${config.provider}: migrations match prisma/models.prisma`);
    drift ||= sql !== null;
  } else {
    console.log(`${config.provider}:`, (await migrateCreate(config, name)) ?? "no changes");
  }
}
if (drift) process.exit(1);
