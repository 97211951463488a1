"use server";
// Server action of the failure-modes page: offer a mode's suggested category on its steps as suggestions, within the
// page's filters (passed as the page's query string and parsed by the same schema as the page).
import { z } from "zod";
import { defineAction } from "../http/action.ts";
import { suggestModeCategory } from "../services/failure-modes/index.ts";
import { failureModesQueryFromUrl } from "../validation/failure-modes-params.ts";

const inputSchema = z.object({
  mode: z.string().regex(/^[\w-]{1,100}$/, "an id from the failure-modes page"),
  search: z.string().max(8_000),
});

export const suggestModeCategoryAction = defineAction("trajectory:import", inputSchema, async (ctx, v) => {
  const params: Record<string, string[]> = {};
  for (const [k, val] of new URLSearchParams(v.search)) (params[k] ??= []).push(val);
  const { filter } = failureModesQueryFromUrl(params);
  return suggestModeCategory(ctx, filter, v.mode);
});
