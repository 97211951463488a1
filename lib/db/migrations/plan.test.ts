import { describe, expect, it } from "vitest";
import { sha256Hex, type LocalMigration } from "./local.ts";
import { checksumMatches, planMigrations, type MigrationRow } from "./plan.ts";

const mig = (name: string, sql = `-- ${name}\nCREATE TABLE "${name}" ("id" INTEGER);\n`): LocalMigration => ({
  name,
  file: `${name}/migration.sql`,
  sql,
  checksum: sha256Hex(sql),
});
const row = (m: LocalMigration, over: Partial<MigrationRow> = {}): MigrationRow => ({
  migration_name: m.name,
  checksum: m.checksum,
  finished_at: "2026-12-01T00:00:00.000+00:00",
  rolled_back_at: null,
  logs: null,
  ...over,
});
const [a, b, c] = [mig("20260101000000_a"), mig("20260102000000_b"), mig("20260103000000_c")];

describe("planning migrations from the recorded history", () => {
  it("lists every migration as pending on an empty database and none on an up-to-date one", () => {
    expect(planMigrations([a, b, c], null)).toEqual({ pending: [a, b, c], problems: [], unknown: [] });
    expect(planMigrations([a, b, c], [row(a), row(b), row(c)])).toEqual({ pending: [], problems: [], unknown: [] });
    expect(planMigrations([a, b, c], [row(a)]).pending).toEqual([b, c]);
  });

  it("re-applies a rolled-back migration and refuses one that failed without being rolled back", () => {
    expect(planMigrations([a, b], [row(a), row(b, { rolled_back_at: "2026-12-02", finished_at: null })]).pending).toEqual([b]);
    const p = planMigrations([a, b], [row(a), row(b, { finished_at: null, logs: "\nERROR: column exists\nmore" })]);
    expect(p.problems).toEqual([expect.stringMatching(/^Migration 20260102000000_b failed earlier .*: ERROR: column exists\. /)]);
  });

  it("refuses a migration whose file no longer matches the checksum recorded when it was applied", () => {
    const edited = { ...b, sql: `${b.sql}-- edited\n` };
    const p = planMigrations([a, edited], [row(a), row(b)]);
    expect(p.problems).toEqual([expect.stringContaining("Migration 20260102000000_b was changed after it was applied")]);
    expect(p.pending).toEqual([]);
  });

  it("matches checksums across line endings, as Prisma does", () => {
    const lf = "CREATE TABLE x (id int);\nCREATE TABLE y (id int);\n";
    const crlf = lf.replace(/\n/g, "\r\n");
    expect(checksumMatches(crlf, sha256Hex(lf))).toBe(true);
    expect(checksumMatches(lf, sha256Hex(crlf))).toBe(true);
    expect(checksumMatches(lf, sha256Hex(lf).toUpperCase())).toBe(true);
    expect(checksumMatches(`${lf} `, sha256Hex(lf))).toBe(false);
  });

  it("reports migrations recorded by a newer release without refusing, and refuses a foreign non-empty database", () => {
    const future = mig("20990101000000_future");
    expect(planMigrations([a], [row(a), row(future)])).toEqual({ pending: [], problems: [], unknown: [future.name] });
    const p = planMigrations([a], null, ["Users", "Orders"]);
    expect(p.problems).toEqual([expect.stringContaining("holds tables (Users, Orders) but no migration history")]);
  });
});
