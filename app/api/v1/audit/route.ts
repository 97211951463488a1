// GET /api/v1/audit — the audit log as JSON Lines (admins), newest first; ?action=prefix&actor=name&before=ISO&limit=N.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { auditEventsToJsonl, auditQuerySchema, listAuditEvents } from "@/lib/services/audit/list-audit-events";

export const dynamic = "force-dynamic";

export const GET = route(
  async (req, ctx) => {
    const rows = await listAuditEvents(ctx, auditQuerySchema.parse(queryObject(req)));
    return new NextResponse(auditEventsToJsonl(rows), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="reterm-audit-${new Date().toISOString().slice(0, 10)}.jsonl"`,
      },
    });
  },
  { permission: "audit:read" },
);
