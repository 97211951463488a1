"use server";
// Server action of the failure-modes page: offer a mode's suggested category on its steps as suggestions, within the
// page's filters (passed as the page's query string and parsed by the same schema as the page).
import { z } from "zod";
import { getPageContext } from "../services/page-context.ts";
import { suggestModeCategory, type ModeSuggestionResult } from "../services/failure-modes/index.ts";
import { failureModesQueryFromUrl } from "../validation/failure-modes-params.ts";
import { isAppError } from "../errors.ts";

export type SuggestModeResult = { ok: true; data: ModeSuggestionResult } | { ok: false; error: string };

const inputSchema = z.object({ mode: z.string().regex(/^[\w-]{1,100}$/, "mode: an id from the failure-modes page"), search: z.string().max(8_000) });

export async function suggestModeCategoryAction(input: z.input<typeof inputSchema>): Promise<SuggestModeResult> {
  const ctx = await getPageContext("trajectory:import");
  try {
    const v = inputSchema.parse(input);
    const params: Record<string, string[]> = {};
    for (const [k, val] of new URLSearchParams(v.search)) (params[k] ??= []).push(val);
    const { filter } = failureModesQueryFromUrl(params);
    return { ok: true, data: await suggestModeCategory(ctx, filter, v.mode) };
  } catch (e) {
    if (e instanceof z.ZodError) return { ok: false, error: e.issues.map((i) => i.message).join("; ") };
    if (isAppError(e)) return { ok: false, error: e.message };
    console.error(e);
    return { ok: false, error: "Something went wrong on the server; see its log." };
  }
}
