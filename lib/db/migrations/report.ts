// What the runners return, and the errors they raise: each names the provider, the migration and what to do.
import { AppError } from "../../errors.ts";
import type { LocalMigration, Provider } from "./local.ts";

export interface ApplyResult {
  /** Migrations applied now, in order. */
  applied: string[];
  /** Recorded in the database but not committed here (a newer release migrated it). */
  unknown: string[];
}

export interface StatusResult {
  pending: string[];
  problems: string[];
  unknown: string[];
}

export function refuse(provider: Provider, problems: string[]): void {
  if (problems.length) throw new AppError("DB_UNAVAILABLE", `Cannot migrate the ${provider} database: ${problems.join(" ")}`);
}

/** Line (1-based) of a character offset in the migration's SQL, when the driver reports one. */
function lineOf(sql: string, position: number | undefined): number | undefined {
  if (!position || position < 1) return undefined;
  return sql.slice(0, position - 1).split("\n").length;
}

export function migrationFailed(provider: Provider, m: LocalMigration, e: unknown): AppError {
  const err = e as { message?: string; position?: string | number };
  const line = lineOf(m.sql, err.position === undefined ? undefined : Number(err.position));
  const where = `${m.file}${line ? ` line ${line}` : ""}`;
  return new AppError(
    "DB_UNAVAILABLE",
    `Migration ${m.name} failed on ${provider} (${where}): ${(err.message ?? String(e)).split("\n")[0]}. It was rolled back: the database is as it was before it.`,
  );
}
