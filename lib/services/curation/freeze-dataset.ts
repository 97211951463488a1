// Freeze the draft: capture each item's labels, build the manifest (counts, token totals, leakage override) and the
// content hash, then mark the version frozen. Held-out tasks block it unless overridden.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { findVersion, freezeDraft } from "../../db/repositories/datasets/datasets.ts";
import { buildManifest, versionContentHash, type ManifestItem } from "../../domain/curation/manifest.ts";
import { TOKENIZER_NAME } from "../../domain/curation/tokens.ts";
import { AppError } from "../../errors.ts";
import { guardLeakage, overrideSchema } from "./leakage-guard.ts";
import { loadVersionItems, READ_BATCH } from "./items.ts";
import { requireDataset } from "./manage-datasets.ts";
import { DATASET_NAME } from "./rules.ts";
import { itemTokens } from "./summarize.ts";

export const freezeInputSchema = z.object({
  name: DATASET_NAME,
  /** The revision the curator saw; omitted by the CLI (freezes whatever the draft holds now). */
  expectedRevision: z.number().int().nonnegative().optional(),
  note: z.string().trim().max(500).optional(),
  override: overrideSchema.optional(),
});

const labelKey = (l: { schema: string; annotator: string; value: string }) => `${l.annotator}:${l.schema}=${l.value}`;

export async function freezeDataset(
  ctx: ServiceContext,
  input: z.input<typeof freezeInputSchema>,
): Promise<{ version: number; contentHash: string; itemCount: number }> {
  authorize(ctx, "dataset:write");
  const f = freezeInputSchema.parse(input);
  const d = await requireDataset(ctx, f.name);
  const revision = f.expectedRevision ?? d.revision;
  if (revision !== d.revision)
    throw new AppError(
      "CONFLICT",
      `the dataset was changed by someone else (revision ${d.revision}, you had ${revision}); reload and try again`,
    );
  const draft = d.latest;
  if (!draft || draft.frozenAt)
    throw new AppError("CONFLICT", `dataset "${f.name}" has no changes since version ${draft?.version ?? 0} was frozen`);
  const override = await guardLeakage(ctx, draft.id, "freeze", f.override);

  const manifestItems: ManifestItem[] = [];
  const itemLabels = new Map<number, string>();
  for await (const batch of loadVersionItems(
    ctx.db,
    { dataset: d.name, versionId: draft.id, version: null, contentHash: null, frozen: false },
    READ_BATCH,
    { steps: true, recording: false },
  )) {
    for (const it of batch) {
      const t = it.item.trajectory;
      // A segment is about recovering from its parent's failure: count it under the parent's error.
      const firstError = it.parent ? (it.item.trajectory.fork?.errorCategory ?? it.parent.errorCategory) : it.item.errorCategory;
      manifestItems.push({
        trajectoryId: it.item.dbId,
        kind: it.kind,
        task: `${t.task.benchmark}/${t.task.id}`,
        run: t.run.name,
        errorCategory: firstError,
        outcome: t.outcome,
        tokens: itemTokens(it),
        labels: it.item.labels.map(labelKey).sort(),
      });
      if (it.item.labels.length) itemLabels.set(it.position, JSON.stringify(it.item.labels));
    }
  }
  const contentHash = versionContentHash(manifestItems);
  const manifest = buildManifest(manifestItems, TOKENIZER_NAME, override);
  await freezeDraft(ctx.db, {
    datasetId: d.id,
    versionId: draft.id,
    expectedRevision: revision,
    contentHash,
    manifest: JSON.stringify(manifest),
    itemLabels,
    note: f.note ?? null,
  });
  const frozen = await findVersion(ctx.db, d.id, draft.version);
  await recordAudit(ctx, {
    action: "dataset.freeze",
    targetType: "dataset",
    targetId: d.name,
    details: { version: frozen!.version, contentHash, items: manifestItems.length, heldOutOverride: override ?? null },
  });
  return { version: frozen!.version, contentHash, itemCount: manifestItems.length };
}
