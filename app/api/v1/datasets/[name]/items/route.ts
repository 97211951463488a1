// POST /api/v1/datasets/:name/items — add and remove items by hand ({expectedRevision, add?: ids, remove?: ids}); 409 on a stale revision
import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/http/body";
import { route } from "@/lib/http/route";
import { editDatasetItems, editItemsInputSchema } from "@/lib/services/curation/manage-datasets";

export const POST = route<{ name: string }>(
  async (req, ctx, { name }) => {
    const body = await readJsonBody(req);
    return NextResponse.json(
      await editDatasetItems(ctx, editItemsInputSchema.parse({ ...(typeof body === "object" && body ? body : {}), name })),
    );
  },
  { permission: "dataset:write" },
);
