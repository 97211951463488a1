// The audit log: append and read. Rows are never updated or deleted by the app.
import type { Db } from "../client.ts";

export interface AuditEventInput {
  actorId: string | null;
  actorName: string;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  details?: string | null;
  ipAddress?: string | null;
}

export interface AuditEventRow extends Required<AuditEventInput> {
  id: string;
  at: Date;
}

export async function insertAuditEvent(db: Db, e: AuditEventInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      ...e,
      targetType: e.targetType ?? null,
      targetId: e.targetId ?? null,
      details: e.details ?? null,
      ipAddress: e.ipAddress ?? null,
    },
  });
}

export async function findAuditEvents(
  db: Db,
  q: { action?: string; actorName?: string; before?: Date; limit: number },
): Promise<AuditEventRow[]> {
  return db.auditEvent.findMany({
    where: {
      ...(q.action ? { action: { startsWith: q.action } } : {}),
      ...(q.actorName ? { actorName: q.actorName } : {}),
      ...(q.before ? { at: { lt: q.before } } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: q.limit,
  });
}
