// Use case: append to the audit log. Other capabilities call this after a change succeeds (labels, schemas, exports).
// No permission is checked: recording is a consequence of an action the caller already authorized, and every
// role's actions are audited.
import type { ServiceContext } from "../context.ts";
import { insertAuditEvent } from "../../db/repositories/audit.ts";
import type { AuditAction } from "../../domain/audit.ts";

export interface AuditEntry {
  action: AuditAction;
  targetType?: string;
  targetId?: string;
  /** Small JSON-able facts about the change; never secrets (passwords, tokens). */
  details?: Record<string, unknown>;
  /** Client address, when the change came from a request. */
  ipAddress?: string | null;
}

export async function recordAudit(ctx: ServiceContext, entry: AuditEntry): Promise<void> {
  await insertAuditEvent(ctx.db, {
    actorId: ctx.actor.id || null,
    actorName: ctx.actor.name,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
    ipAddress: entry.ipAddress ?? null,
  });
}
