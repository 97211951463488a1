// The leakage guard: refuse to freeze or export a version containing held-out tasks unless the curator overrides it
// explicitly with a reason; the override is returned so the manifest (or export job) records it.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { findItemTasks, findParentIds, listHeldOut } from "../../db/repositories/datasets/candidates.ts";
import { findVersionItems } from "../../db/repositories/datasets/datasets.ts";
import { findLeaks, type HeldOut } from "../../domain/curation/leakage.ts";
import type { LeakageOverride } from "../../domain/curation/manifest.ts";
import { AppError } from "../../errors.ts";

export const overrideSchema = z.object({ reason: z.string().trim().min(3, "must say why held-out tasks may be included") });
export type OverrideInput = z.infer<typeof overrideSchema>;

/**
 * Held-out tasks among a version's items (segments count their parent's task too, the same task in practice).
 * `heldOut`: the held-out list when the caller read it already (an export reads it while its reader connects).
 */
export async function versionLeaks(ctx: ServiceContext, versionId: string, heldOut?: Promise<HeldOut[]>): Promise<string[]> {
  const held: HeldOut[] = await (heldOut ?? listHeldOut(ctx.db));
  if (!held.length) return [];
  const leaks = new Set<string>();
  let after = -1;
  for (;;) {
    const items = await findVersionItems(ctx.db, versionId, after, 5_000);
    if (!items.length) break;
    after = items.at(-1)!.position;
    const ids = items.map((i) => i.trajectoryId);
    const segments = items.filter((i) => i.kind === "segment").map((i) => i.trajectoryId);
    const parentIds = segments.length ? await findParentIds(ctx.db, segments) : [];
    for (const l of findLeaks(await findItemTasks(ctx.db, [...ids, ...parentIds]), held)) leaks.add(l);
  }
  return [...leaks].sort();
}

/** Throws CONFLICT naming the held-out tasks unless overridden; returns the override to record, or null. */
export async function guardLeakage(
  ctx: ServiceContext,
  versionId: string,
  action: "freeze" | "export",
  override: OverrideInput | undefined,
  heldOut?: Promise<HeldOut[]>,
): Promise<LeakageOverride | null> {
  const leaks = await versionLeaks(ctx, versionId, heldOut);
  if (!leaks.length) return null;
  if (!override) {
    const shown = leaks.slice(0, 10).join(", ") + (leaks.length > 10 ? ` and ${leaks.length - 10} more` : "");
    throw new AppError(
      "CONFLICT",
      `refusing to ${action}: the version contains held-out tasks (${shown}); remove them, or override with a reason`,
      { heldOut: leaks },
    );
  }
  return { by: ctx.actor.name, at: new Date().toISOString(), reason: override.reason, tasks: leaks };
}

/**
 * The held-out tasks each version of a dataset holds (versions without any are absent), for the export form: it asks
 * for an override reason only where one is needed. Read with the same rule the guard applies.
 */
export async function listVersionLeaks(
  ctx: ServiceContext,
  versions: readonly { id: string; version: number }[],
): Promise<Record<number, string[]>> {
  authorize(ctx, "dataset:export");
  const held = listHeldOut(ctx.db);
  const out: Record<number, string[]> = {};
  for (const v of versions) {
    const leaks = await versionLeaks(ctx, v.id, held);
    if (leaks.length) out[v.version] = leaks;
  }
  return out;
}
