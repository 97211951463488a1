// GET /api/v1/trajectories — a page of trajectories filtered, searched and sorted like the browser (facets=1 adds facet counts, select=ids returns every matching id)
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch, trajectoryApiQuerySchema } from "@/lib/validation/search-params";
import { getTrajectoryFacets, listTrajectories, selectMatchingTrajectories } from "@/lib/services/browse/browse-trajectories";
import { ingestTrajectories } from "@/lib/services/import/ingest-trajectories";
import { getEnv } from "@/lib/env";
import { JSON_TYPES, readTextCapped, requireContentType } from "@/lib/http/body";

export const GET = route(
  async (req, ctx) => {
    const { query, select, facets } = trajectoryApiQuerySchema.parse(paramsFromSearch(req.nextUrl.searchParams));
    if (select === "ids") return NextResponse.json(await selectMatchingTrajectories(ctx, query));
    const [list, facetCounts] = await Promise.all([listTrajectories(ctx, query), facets ? getTrajectoryFacets(ctx, query) : null]);
    return NextResponse.json(facets ? { ...list, facets: facetCounts } : list);
  },
  { permission: "trajectory:read" },
);

// POST /api/v1/trajectories — push native-format trajectories (JSON object, JSON array or NDJSON); idempotent per id/content.
// JSON Content-Types only (415 otherwise: a cross-site text/plain form post never lands); the body is read with a cap
// and each record is sized before it is parsed.
export const POST = route(
  async (req, ctx) => {
    const env = getEnv();
    const type = requireContentType(req.headers, JSON_TYPES);
    const body = await readTextCapped(req, env.RETERM_MAX_API_BODY_MB * 1024 * 1024, "request body", "RETERM_MAX_API_BODY_MB");
    const ndjson = type !== "application/json" && !type.endsWith("+json");
    return NextResponse.json(await ingestTrajectories(ctx, body, { ndjson, maxRecordBytes: env.RETERM_MAX_RECORD_MB * 1024 * 1024 }));
  },
  { permission: "trajectory:import" },
);
