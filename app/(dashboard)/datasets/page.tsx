import type { Metadata } from "next";
import Link from "next/link";
import { Database } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { listAllDatasets } from "@/lib/services/curation/view-datasets";
import { listHeldOutTasks } from "@/lib/services/curation/held-out";
import { can } from "@/lib/domain/authz";
import { DatasetsList } from "@/components/datasets/datasets-list";
import { HeldOutPanel } from "@/components/datasets/held-out-panel";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Code } from "@/components/ui/code";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const ctx = await getPageContext("trajectory:read");
  const canWrite = can(ctx.actor, "dataset:write");
  const [datasets, heldOut] = await Promise.all([listAllDatasets(ctx), canWrite ? listHeldOutTasks(ctx) : []]);
  return (
    <>
      <PageHeader title="Datasets" description="Curated, versioned subsets of trajectories and recovery segments, exported as SFT data with provenance." />
      {datasets.length ? (
        <DatasetsList datasets={datasets} />
      ) : (
        <EmptyState title="No datasets yet" icon={<Database />}>
          Filter the <Link href="/trajectories" className="underline">trajectories</Link> and choose “Create dataset from filter”, or run <Code>npm run reterm -- dataset create NAME --outcome passed</Code>.
        </EmptyState>
      )}
      {canWrite ? (
        <Card className="mt-5">
          <CardHeader><CardTitle>Held-out tasks</CardTitle></CardHeader>
          <CardContent><HeldOutPanel tasks={heldOut} /></CardContent>
        </Card>
      ) : null}
    </>
  );
}
