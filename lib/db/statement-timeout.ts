// A statement cancelled by PostgreSQL's statement_timeout (SQLSTATE 57014), as Prisma reports it for raw queries:
// P2010, the database's code in the driver adapter's cause. Callers that set a budget on a statement fall back to
// another way of answering. SQLite has no statement timeout.
export function isStatementTimeout(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { code?: string } } } };
  if (err?.code !== "P2010") return false;
  return String(err.meta?.driverAdapterError?.cause?.code ?? err.meta?.code ?? "") === "57014";
}
