import type { Metadata } from "next";
import Link from "next/link";
import { Database } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { listAllDatasets } from "@/lib/services/curation/view-datasets";
import { DatasetsList } from "@/components/datasets/datasets-list";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Code } from "@/components/ui/code";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const datasets = await listAllDatasets(await getPageContext("trajectory:read"));
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
    </>
  );
}
