import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPageContext } from "@/lib/services/page-context";
import { listTrajectories } from "@/lib/services/browse/browse-trajectories";
import { compareWithPrevious, getDatasetDetail } from "@/lib/services/curation/view-datasets";
import { listDatasetExports } from "@/lib/services/curation/export-jobs";
import { listVersionLeaks } from "@/lib/services/curation/leakage-guard";
import { can } from "@/lib/domain/authz";
import { isAppError } from "@/lib/errors";
import { trajectoryListUrlSchema } from "@/lib/validation/search-params";
import { DatasetItemsTable } from "@/components/datasets/dataset-items-table";
import { ExportPanel } from "@/components/datasets/export-panel";
import { FreezePanel } from "@/components/datasets/freeze-panel";
import { DeleteDatasetButton } from "@/components/datasets/delete-dataset-button";
import { VersionsList, type VersionDiff } from "@/components/datasets/versions-list";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Dataset ${decodeURIComponent((await params).name)}` };
}

export default async function DatasetPage({ params, searchParams }: Props) {
  const name = decodeURIComponent((await params).name);
  const ctx = await getPageContext();
  const detail = await getDatasetDetail(ctx, name).catch((e: unknown) =>
    isAppError(e) && e.code === "NOT_FOUND" ? notFound() : Promise.reject(e),
  );
  const { dataset, versions } = detail;
  const query = { ...trajectoryListUrlSchema.parse(await searchParams), datasetId: [dataset.id] };
  const canExport = can(ctx.actor, "dataset:export");
  const [list, exports, leaks] = await Promise.all([
    listTrajectories(ctx, query),
    canExport ? listDatasetExports(ctx, name) : [],
    canExport ? listVersionLeaks(ctx, versions) : {},
  ]);
  // The version an export without a number takes (the service's rule): the latest if frozen or if none is, else the latest frozen.
  const latestFrozen = versions.filter((v) => v.frozenAt).reduce<number | null>((m, v) => Math.max(m ?? 0, v.version), null);
  const defaultVersion = dataset.latest ? (dataset.latest.frozenAt || latestFrozen === null ? dataset.latest.version : latestFrozen) : null;
  const diffs = new Map<number, VersionDiff>();
  for (const v of versions.slice(0, 5)) {
    const d = await compareWithPrevious(ctx, name, v.version);
    diffs.set(v.version, { added: d.added.length, removed: d.removed.length });
  }
  const draft = dataset.latest && !dataset.latest.frozenAt;
  return (
    <>
      <PageHeader
        title={dataset.name}
        description={`${dataset.itemKind === "segment" ? "Recovery segments (failed parent up to the fork → passed attempt)" : "Whole trajectories"} · ${dataset.description ?? "no description"}`}
        actions={
          can(ctx.actor, "dataset:write") ? (
            <div className="flex items-start gap-2">
              <FreezePanel name={dataset.name} revision={dataset.revision} hasChanges={!!draft} />
              <DeleteDatasetButton name={dataset.name} revision={dataset.revision} />
            </div>
          ) : null
        }
      />
      <div className="mb-5 flex flex-col gap-5">
        <Card>
          <CardHeader>
            <CardTitle>Versions</CardTitle>
          </CardHeader>
          <VersionsList versions={versions} diffs={diffs} />
        </Card>
        {canExport ? (
          <Card>
            <CardHeader>
              <CardTitle>Export</CardTitle>
            </CardHeader>
            <CardContent>
              <ExportPanel
                name={dataset.name}
                versions={versions.map((v) => ({ version: v.version, frozen: !!v.frozenAt }))}
                initial={exports}
                leaks={leaks}
                defaultVersion={defaultVersion}
              />
            </CardContent>
          </Card>
        ) : null}
      </div>
      <h2 className="mb-2 text-sm font-semibold">Items {draft ? "(current draft)" : `(v${dataset.latest?.version ?? 1})`}</h2>
      <DatasetItemsTable
        list={list}
        name={dataset.name}
        revision={dataset.revision}
        editable={can(ctx.actor, "dataset:write") && !!dataset.latest}
      />
    </>
  );
}
