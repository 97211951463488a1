// GET /api/health — liveness and database reachability (no data, no auth needed; the Host gate still applies).
import { NextResponse } from "next/server";
import { checkDatabase } from "@/lib/services/system/check-health";
import { guardRequest } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const refused = guardRequest(req);
  if (refused) return refused;
  const db = await checkDatabase();
  return NextResponse.json({ ok: db.ok, database: db }, { status: db.ok ? 200 : 503 });
}
