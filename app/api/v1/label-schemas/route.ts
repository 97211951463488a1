// GET /api/v1/label-schemas — every label schema as JSON, in the format the schema editor imports
// (`?download=1`: as a file). Annotators read schemas too (descriptions, hotkeys), so reading needs trajectory:read.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { exportSchemas } from "@/lib/services/annotation/manage-schemas";

export const dynamic = "force-dynamic";

export const GET = route(
  async (req, ctx) => {
    const body = await exportSchemas(ctx);
    const download = queryObject(req).download === "1";
    return new NextResponse(body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        ...(download
          ? { "content-disposition": `attachment; filename="reterm-label-schemas-${new Date().toISOString().slice(0, 10)}.json"` }
          : {}),
      },
    });
  },
  { permission: "trajectory:read" },
);
