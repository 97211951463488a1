// Prisma reports a unique-constraint violation as P2002 on both providers; callers turn it into "already exists",
// "someone was first" or a retry. One check, so no repository spells the code itself.
export function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === "P2002";
}
