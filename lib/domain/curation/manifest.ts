// The manifest of a frozen version (counts by task, run, error category, outcome; token totals; leakage override)
// and its content hash: SHA-256 over the canonical item list and label values, so equal content gives equal hashes.
import { z } from "zod";
import { sha256 } from "../hash.ts";
import type { ItemKind } from "./types.ts";

export interface ManifestItem {
  trajectoryId: string;
  kind: ItemKind;
  task: string;
  run: string;
  errorCategory: string | null;
  outcome: string;
  tokens: number;
  /** Label values captured with the item: "schema=value" by annotator, sorted. */
  labels: string[];
}

export interface LeakageOverride {
  by: string;
  at: string;
  reason: string;
  tasks: string[];
}

export interface Manifest {
  items: number;
  kinds: Record<string, number>;
  byTask: Record<string, number>;
  byRun: Record<string, number>;
  byErrorCategory: Record<string, number>;
  byOutcome: Record<string, number>;
  tokens: { total: number; max: number; mean: number; tokenizer: string };
  labelValues: Record<string, number>;
  leakageOverride: LeakageOverride | null;
}

const bump = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);
/** Keys sorted, so the manifest serializes the same every time. */
const sorted = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function buildManifest(items: ManifestItem[], tokenizer: string, leakageOverride: LeakageOverride | null): Manifest {
  const kinds = {},
    byTask = {},
    byRun = {},
    byErrorCategory = {},
    byOutcome = {},
    labelValues = {};
  let total = 0,
    max = 0;
  for (const it of items) {
    bump(kinds, it.kind);
    bump(byTask, it.task);
    bump(byRun, it.run);
    bump(byErrorCategory, it.errorCategory ?? "none");
    bump(byOutcome, it.outcome);
    for (const l of it.labels) bump(labelValues, l.slice(l.indexOf(":") + 1));
    total += it.tokens;
    max = Math.max(max, it.tokens);
  }
  return {
    items: items.length,
    kinds: sorted(kinds),
    byTask: sorted(byTask),
    byRun: sorted(byRun),
    byErrorCategory: sorted(byErrorCategory),
    byOutcome: sorted(byOutcome),
    tokens: { total, max, mean: items.length ? Math.round(total / items.length) : 0, tokenizer },
    labelValues: sorted(labelValues),
    leakageOverride,
  };
}

/** Content hash of a version: items in position order with their kind and captured labels. */
export function versionContentHash(items: Pick<ManifestItem, "trajectoryId" | "kind" | "labels">[]): string {
  return sha256(items.map((it) => `${it.kind}:${it.trajectoryId}:${it.labels.join("|")}`).join("\n"));
}

const counts = z.record(z.string(), z.number());
/** Stored manifests are read back through this schema. */
export const manifestSchema: z.ZodType<Manifest> = z.object({
  items: z.number(),
  kinds: counts,
  byTask: counts,
  byRun: counts,
  byErrorCategory: counts,
  byOutcome: counts,
  tokens: z.object({ total: z.number(), max: z.number(), mean: z.number(), tokenizer: z.string() }),
  labelValues: counts,
  leakageOverride: z.object({ by: z.string(), at: z.string(), reason: z.string(), tasks: z.array(z.string()) }).nullable(),
});
