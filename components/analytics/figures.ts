// Number formatting for analytics tables and exports (pure; shared by server and client components).
import type { Interval } from "@/lib/domain/analytics/intervals";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";

export const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(digits)}%`);
export const signedPct = (v: number | null | undefined) =>
  v === null || v === undefined ? "—" : `${v >= 0 ? "+" : "−"}${Math.abs(v * 100).toFixed(1)} pp`;
export const ciText = (ci: Interval | null | undefined, signed = false) =>
  ci ? `[${signed ? signedPct(ci.lo) : pct(ci.lo)}, ${signed ? signedPct(ci.hi) : pct(ci.hi)}]` : "";
export const round = (v: number | null | undefined, digits = 4) => (v === null || v === undefined ? null : Number(v.toFixed(digits)));
export const categoryName = (c: string | null) => (c === null ? "Uncategorized" : errorCategoryLabel(c));
