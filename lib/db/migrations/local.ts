// The committed migrations of one provider (prisma/<provider>/migrations/<name>/migration.sql), read in name order,
// with the checksum Prisma Migrate records for each: the SHA-256 (hex) of the file's bytes.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseConfig } from "../../env.ts";

export type Provider = DatabaseConfig["provider"];

export interface LocalMigration {
  name: string;
  /** The migration.sql, relative to the project when it is inside it (for messages). */
  file: string;
  sql: string;
  checksum: string;
}

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PRISMA_DIR = path.join(ROOT, "prisma");

export function migrationsDir(provider: Provider): string {
  return path.join(PRISMA_DIR, provider === "sqlite" ? "sqlite" : "postgres", "migrations");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Every migration folder holding a migration.sql, sorted by name (the timestamp prefix orders them). */
export function readMigrations(dir: string): LocalMigration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const file = path.resolve(dir, name, "migration.sql");
      const sql = fs.readFileSync(file, "utf8");
      const shown = path.relative(ROOT, file);
      return { name, file: shown.startsWith("..") ? file : shown, sql, checksum: sha256Hex(sql) };
    });
}
