// GET /api/v1/tasks — every task with its original rollouts' counts by outcome, pass rate (Wilson 95%), pass@k and
// recovery figures: the Tasks page's numbers (unknown outcomes counted apart, in no denominator).
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { listTaskFigures } from "@/lib/services/browse/list-catalog-figures";

export const dynamic = "force-dynamic";

export const GET = route(
  async (req, ctx) => {
    const unknown = Object.keys(queryObject(req))[0];
    if (unknown !== undefined) throw new AppError("INVALID_INPUT", `${unknown}: unknown parameter`);
    return NextResponse.json(await listTaskFigures(ctx));
  },
  { permission: "trajectory:read" },
);
