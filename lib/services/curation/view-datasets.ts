// Read side of curation: the dataset list, one dataset with its versions, and what changed between two versions.
import { authorize, type ServiceContext } from "../context.ts";
import {
  diffVersions,
  findDatasetRules,
  findVersion,
  listDatasets,
  listVersions,
  type DatasetSummary,
  type VersionSummary,
} from "../../db/repositories/datasets/datasets.ts";
import { listStoredExportFormats } from "../../db/repositories/datasets/frozen-exports.ts";
import { manifestSchema, type Manifest } from "../../domain/curation/manifest.ts";
import { AppError } from "../../errors.ts";
import { requireDataset } from "./manage-datasets.ts";
import { isDataKey } from "./frozen-exports.ts";
import { parseStoredRules, type DatasetRules } from "./rules.ts";

export type { DatasetSummary, VersionSummary, Manifest };

export async function listAllDatasets(ctx: ServiceContext): Promise<DatasetSummary[]> {
  authorize(ctx, "trajectory:read");
  return listDatasets(ctx.db);
}

export interface VersionView extends Omit<VersionSummary, "manifest"> {
  manifest: Manifest | null;
  /** Formats whose export was stored after freezing (exports of the others are rendered from the items). */
  storedExports: string[];
}

export interface DatasetDetail {
  dataset: DatasetSummary;
  rules: DatasetRules | null;
  versions: VersionView[];
}

export async function getDatasetDetail(ctx: ServiceContext, name: string): Promise<DatasetDetail> {
  authorize(ctx, "trajectory:read");
  const dataset = await requireDataset(ctx, name);
  const rows = await listVersions(ctx.db, dataset.id);
  const stored = await listStoredExportFormats(
    ctx.db,
    rows.filter((v) => v.frozenAt).map((v) => v.id),
  );
  // Sidecars (a chat format's provenance) are stored under keys of their own; the list counts formats.
  const versions = rows.map((v) => ({
    ...v,
    manifest: v.manifest ? manifestSchema.parse(JSON.parse(v.manifest)) : null,
    storedExports: (stored.get(v.id) ?? []).filter(isDataKey),
  }));
  return { dataset, rules: parseStoredRules(await findDatasetRules(ctx.db, dataset.id)), versions };
}

/** Items added and removed in `version` compared with the version before it; version 1 adds every item it holds. */
export async function compareWithPrevious(
  ctx: ServiceContext,
  name: string,
  version: number,
): Promise<{ from: number | null; added: string[]; removed: string[] }> {
  authorize(ctx, "trajectory:read");
  const d = await requireDataset(ctx, name);
  const v = await findVersion(ctx.db, d.id, version);
  if (!v) throw new AppError("NOT_FOUND", `dataset "${name}" has no version ${version}`);
  const prev = version > 1 ? await findVersion(ctx.db, d.id, version - 1) : null;
  return { from: prev?.version ?? null, ...(await diffVersions(ctx.db, prev?.id ?? null, v.id)) };
}
