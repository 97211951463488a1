// What an export opens with, read on the export reader's own connection: the dataset, the version to export and the
// stored export's completion row. Raw SQL, like the rest of the reader: in a fresh process (`reterm export`) each new
// Prisma query shape costs its first run 10–50 ms (the dataset summary, with its relation and count, ≈ 45 ms on
// PostgreSQL), more than the lookups themselves; and read here, the completion row and the chunks that follow come
// from one snapshot. The rows are the same DatasetSummary / VersionSummary the Prisma repository gives (tested).
import type { DatasetSummary, VersionSummary } from "../datasets.ts";
import type { FrozenExportView } from "../frozen-exports.ts";
import type { ItemKind } from "../../../../domain/curation/types.ts";
import type { Cells, RowSource } from "./read.ts";

export interface ExportTarget {
  dataset: DatasetSummary;
  /** The version asked for by number (null when none was asked for, or it does not exist). */
  requested: VersionSummary | null;
  /** The highest frozen version (null when none is frozen). */
  latestFrozen: VersionSummary | null;
}

const VERSION_COLUMNS = `v."id", v."version", v."itemCount", v."contentHash", v."frozenAt", v."manifest", v."note", v."createdAt"`;

function versionOf(src: RowSource, r: Cells): VersionSummary {
  const frozenAt = r[4] == null ? null : src.cells.iso(r[4]);
  return {
    id: r[0] as string,
    version: Number(r[1]),
    itemCount: Number(r[2]),
    contentHash: frozenAt ? (r[3] as string) : null,
    frozenAt,
    manifest: (r[5] as string | null) ?? null,
    note: (r[6] as string | null) ?? null,
    createdAt: src.cells.iso(r[7]),
  };
}

/** The dataset named `name` with its latest version, the version numbered `version` and the latest frozen one. */
export async function readExportTarget(src: RowSource, name: string, version: number | undefined): Promise<ExportTarget | null> {
  const [d] = await src.all(
    `SELECT d."id", d."name", d."description", d."itemKind", d."revision", d."createdAt", d."updatedAt", u."name",
       (SELECT COUNT(*) FROM "DatasetVersion" f WHERE f."datasetId" = d."id" AND f."frozenAt" IS NOT NULL)
     FROM "Dataset" d JOIN "User" u ON u."id" = d."createdById" WHERE d."name" = ?`,
    [name],
  );
  if (!d) return null;
  const id = d[0] as string;
  // The latest version, the latest frozen one and the one asked for, in one query (two or three rows at most).
  const rows = await src.all(
    `SELECT ${VERSION_COLUMNS} FROM "DatasetVersion" v WHERE v."datasetId" = ? AND v."version" IN (
       (SELECT MAX(l."version") FROM "DatasetVersion" l WHERE l."datasetId" = ?),
       (SELECT MAX(l."version") FROM "DatasetVersion" l WHERE l."datasetId" = ? AND l."frozenAt" IS NOT NULL), ?)
     ORDER BY v."version" DESC`,
    [id, id, id, version ?? -1],
  );
  const versions = rows.map((r) => versionOf(src, r));
  return {
    dataset: {
      id,
      name: d[1] as string,
      description: (d[2] as string | null) ?? null,
      itemKind: d[3] as ItemKind,
      revision: Number(d[4]),
      createdAt: src.cells.iso(d[5]),
      updatedAt: src.cells.iso(d[6]),
      createdBy: d[7] as string,
      latest: versions[0] ?? null,
      frozenCount: Number(d[8]),
    },
    requested: version === undefined ? null : (versions.find((v) => v.version === version) ?? null),
    latestFrozen: versions.find((v) => v.frozenAt !== null) ?? null,
  };
}

/** The completion row of a stored export (as findFrozenExport gives it), or null when none was stored. */
export async function readFrozenExportRow(src: RowSource, versionId: string, format: string): Promise<FrozenExportView | null> {
  const [r] = await src.all(`SELECT "chunks", "bytes", "sha256", "card" FROM "FrozenExport" WHERE "versionId" = ? AND "format" = ?`, [
    versionId,
    format,
  ]);
  return r ? { chunks: Number(r[0]), bytes: Number(r[1]), sha256: r[2] as string, card: (r[3] as string | null) ?? null } : null;
}
