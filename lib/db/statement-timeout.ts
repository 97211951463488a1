// A statement cancelled by PostgreSQL's statement_timeout (SQLSTATE 57014), as Prisma reports it for raw queries:
// P2010, the database's code in the driver adapter's cause. Callers that set a budget on a statement fall back to
// another way of answering. SQLite has no statement timeout.
import type { Prisma } from "./generated/sqlite/client.ts";
import type { Db } from "./client.ts";
import { dialectOf } from "./dialect.ts";

export function isStatementTimeout(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { code?: string } } } };
  if (err?.code !== "P2010") return false;
  return String(err.meta?.driverAdapterError?.cause?.code ?? err.meta?.code ?? "") === "57014";
}

/**
 * Raw reads, each under a statement budget on PostgreSQL when one is given (set for its own transaction only, so the
 * pooled connection keeps the server's setting). Without a budget, or on SQLite, a plain read.
 */
export function budgetedReader(db: Db, budgetMs: number | null): (query: Prisma.Sql) => Promise<unknown[]> {
  if (budgetMs === null || dialectOf(db) !== "postgresql") return (query) => db.$queryRaw<unknown[]>(query);
  return (query) =>
    db
      .$transaction([
        db.$queryRaw<unknown[]>`SELECT set_config('statement_timeout', ${String(budgetMs)}, true)`,
        db.$queryRaw<unknown[]>(query),
      ])
      .then((r) => r[1]!);
}
