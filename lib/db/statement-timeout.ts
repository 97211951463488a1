// A statement cancelled by PostgreSQL's statement_timeout (SQLSTATE 57014), as Prisma reports it for raw queries
// (P2010 carrying the database's code). Callers that set a budget on a statement fall back to another way of
// answering. SQLite has no statement timeout.
export function isStatementTimeout(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string }; message?: string };
  return (err?.code === "P2010" && String(err.meta?.code ?? "") === "57014") || /statement timeout/i.test(err?.message ?? "");
}
