// Use case: read and export the audit log (admins).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { findAuditEvents, type AuditEventRow } from "../../db/repositories/audit.ts";

export type { AuditEventRow };

export const auditQuerySchema = z.object({
  action: z
    .string()
    .trim()
    .max(64)
    .regex(/^[a-z.-]*$/, "must be an action prefix such as user. or auth.sign-in")
    .optional(),
  actor: z.string().trim().max(64).optional(),
  before: z.coerce.date().optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(200),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export async function listAuditEvents(ctx: ServiceContext, q: AuditQuery): Promise<AuditEventRow[]> {
  authorize(ctx, "audit:read");
  return findAuditEvents(ctx.db, { action: q.action || undefined, actorName: q.actor || undefined, before: q.before, limit: q.limit });
}

/** One JSON object per line, oldest last (as listed). Details stay the JSON text they were stored as. */
export function auditEventsToJsonl(rows: AuditEventRow[]): string {
  return (
    rows.map((r) => JSON.stringify({ ...r, at: r.at.toISOString(), details: r.details ? JSON.parse(r.details) : null })).join("\n") +
    (rows.length ? "\n" : "")
  );
}
