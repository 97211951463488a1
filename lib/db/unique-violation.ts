// Prisma reports a unique-constraint violation as P2002 on both providers (a raw query's as P2010 carrying the
// database's own code: PostgreSQL 23505, SQLite 2067/1555); callers turn it into "already exists", "someone was first"
// or a retry. One check, so no repository spells the code itself.
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { kind?: string } } }; message?: string };
  if (err?.code === "P2002") return true;
  if (err?.code !== "P2010") return false;
  const dbCode = String(err.meta?.code ?? "");
  return (
    dbCode === "23505" ||
    dbCode === "2067" ||
    dbCode === "1555" ||
    err.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation" ||
    /unique constraint/i.test(err.message ?? "")
  );
}
