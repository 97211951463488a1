// Keyset paging cursors: opaque base64url of {d, v, id}, decoded strictly, and checked against the sort they page.
import { z } from "zod";
import { MAX_SORT_KEYS, TRAJECTORY_COLUMNS, type PageCursor, type SortPart } from "./registry.ts";

const cursorJsonSchema = z.object({
  d: z.enum(["after", "before"]),
  v: z
    .array(z.union([z.string().max(500), z.number(), z.null()]))
    .min(1)
    .max(MAX_SORT_KEYS),
  id: z.string().min(1).max(200),
});

/** Opaque cursor for keyset paging: base64url of {d, v, id}. */
export function encodeCursor(c: PageCursor): string {
  const json = JSON.stringify({ d: c.dir, v: c.values, id: c.id });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export const cursorSchema = z
  .string()
  .max(2000)
  .transform((raw, ctx): PageCursor => {
    try {
      const bin = atob(raw.replace(/-/g, "+").replace(/_/g, "/"));
      const parsed = cursorJsonSchema.safeParse(JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))));
      if (parsed.success) return { dir: parsed.data.d, values: parsed.data.v, id: parsed.data.id };
    } catch {
      // fall through to the issue below
    }
    ctx.addIssue({ code: "custom", message: "is not a valid page cursor (take it from a previous response's nextCursor/prevCursor)" });
    return z.NEVER;
  });

/** Decode a cursor string from a response (null when it is not a valid cursor). */
export function decodeCursor(raw: string): PageCursor | null {
  const r = cursorSchema.safeParse(raw);
  return r.success ? r.data : null;
}

/** A cursor carries one value per sort column, of that column's type (null where the column is empty). */
export function cursorFits(c: PageCursor, sort: SortPart[]): boolean {
  if (c.values.length !== sort.length) return false;
  return sort.every((s, i) => {
    const v = c.values[i];
    const kind = TRAJECTORY_COLUMNS[s.id].value;
    if (v === null) return true;
    if (kind === "number") return typeof v === "number" && Number.isFinite(v);
    return typeof v === "string" && (kind === "text" || !Number.isNaN(Date.parse(v)));
  });
}
