// The labelling panel talks to /api/v1/annotations (the same validation and 409 handling as every other client).
import type { LabelView } from "@/lib/services/annotation/list-labels";
import type { SuggestionView } from "@/lib/services/annotation/suggestions/list-suggestions";
import type { Decision } from "@/lib/domain/annotation/suggestions";

export type { LabelView, SuggestionView };

export class LabelApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body ? { "content-type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new LabelApiError(json?.error?.message ?? `request failed (${res.status})`, res.status);
  return json as T;
}

export const labelApi = {
  list: (trajectoryId: string) =>
    call<{ labels: LabelView[] }>("GET", `/api/v1/annotations?trajectory=${encodeURIComponent(trajectoryId)}&limit=1000`),
  create: (body: { trajectory: string; schema: string; value: string; target?: unknown; comment?: string | null }) =>
    call<LabelView>("POST", "/api/v1/annotations", body),
  update: (body: { id: string; version: number; value?: string; comment?: string | null }) =>
    call<LabelView>("PATCH", "/api/v1/annotations", body),
  remove: (id: string, version: number) => call<void>("DELETE", `/api/v1/annotations?id=${encodeURIComponent(id)}&version=${version}`),
};

export const suggestionApi = {
  list: (trajectoryId: string) =>
    call<{ suggestions: SuggestionView[] }>("GET", `/api/v1/annotations/suggestions?trajectory=${encodeURIComponent(trajectoryId)}`),
  /** One page in list order after the suggestion `after` (from the start without it). */
  page: (trajectoryId: string, after: string | undefined, limit: number) =>
    call<{ suggestions: SuggestionView[]; total: number; more: boolean }>(
      "GET",
      `/api/v1/annotations/suggestions?trajectory=${encodeURIComponent(trajectoryId)}${after ? `&after=${encodeURIComponent(after)}` : ""}&limit=${limit}`,
    ),
  withdraw: (key: string) =>
    call<{ suggestion: string; labelId: string | null }>("DELETE", `/api/v1/annotations/suggestions?suggestion=${encodeURIComponent(key)}`),
  decide: (body: { suggestion: string; decision: Decision; value?: string }) =>
    call<{ suggestion: string; decision: Decision; label: LabelView | null }>("POST", "/api/v1/annotations/suggestions", body),
};
