// GET /api/health — liveness, database reachability and file storage (no data, no auth needed; the Host gate still
// applies). 503 when either is down, so a load balancer takes the replica out.
import { NextResponse } from "next/server";
import { checkDatabase, checkStorage } from "@/lib/services/system/check-health";
import { guardRequest } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const refused = guardRequest(req);
  if (refused) return refused;
  const [db, storage] = await Promise.all([checkDatabase(), checkStorage()]);
  const ok = db.ok && storage.ok;
  return NextResponse.json({ ok, database: db, storage }, { status: ok ? 200 : 503 });
}
