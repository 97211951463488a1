// PostgreSQL aborts a statement that waited past its lock_timeout (55P03) or closed a cycle of waits (40P01, the
// whole transaction). Prisma passes the code on in `meta.code` for a raw query (P2010) and reports an interactive
// transaction's conflict as P2034. Callers whose transaction can simply run again retry on either.
export function isLockConflict(e: unknown): boolean {
  const err = e as { code?: string; meta?: { code?: string }; message?: string };
  if (err?.code === "40P01" || err?.code === "55P03" || err?.code === "P2034") return true;
  if (err?.code !== "P2010") return false;
  const dbCode = String(err.meta?.code ?? "");
  return dbCode === "40P01" || dbCode === "55P03" || /deadlock detected|lock timeout/i.test(err.message ?? "");
}
