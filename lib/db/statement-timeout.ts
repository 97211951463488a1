// A statement cancelled by PostgreSQL's statement_timeout (SQLSTATE 57014), as Prisma reports it for raw queries:
// P2010, the database's code in the driver adapter's cause. Callers that set a budget on a statement fall back to
// another way of answering. SQLite has no statement timeout.
import { Prisma } from "./generated/sqlite/client.ts";
import type { Db } from "./client.ts";
import { dialectOf } from "./dialect.ts";

const sql = Prisma.sql;

export function isStatementTimeout(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { code?: string } } } };
  if (err?.code !== "P2010") return false;
  return String(err.meta?.driverAdapterError?.cause?.code ?? err.meta?.code ?? "") === "57014";
}

/**
 * The statement that puts the rest of its transaction under a budget (set_config, SET LOCAL's function form, so the
 * value is bound and the pooled connection keeps the server's setting afterwards). PostgreSQL only.
 */
export const statementBudgetSql = (budgetMs: number): Prisma.Sql => sql`SELECT set_config('statement_timeout', ${String(budgetMs)}, true)`;

/** Raw reads in one batch transaction, each under the budget on PostgreSQL when one is given; their rows, in order. */
export async function budgetedBatch(db: Db, budgetMs: number | null, queries: Prisma.Sql[]): Promise<unknown[][]> {
  const reads = queries.map((query) => db.$queryRaw<unknown[]>(query));
  if (budgetMs === null || dialectOf(db) !== "postgresql") return db.$transaction(reads);
  const [, ...rows] = await db.$transaction([db.$queryRaw<unknown[]>(statementBudgetSql(budgetMs)), ...reads]);
  return rows;
}

/** Raw reads, each under a statement budget on PostgreSQL when one is given; without one, or on SQLite, a plain read. */
export function budgetedReader(db: Db, budgetMs: number | null): (query: Prisma.Sql) => Promise<unknown[]> {
  if (budgetMs === null || dialectOf(db) !== "postgresql") return (query) => db.$queryRaw<unknown[]>(query);
  return (query) => budgetedBatch(db, budgetMs, [query]).then((rows) => rows[0]!);
}
