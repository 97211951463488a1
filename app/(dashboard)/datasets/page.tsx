import type { Metadata } from "next";
import { Database } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/services/page-context";
import { EmptyState } from "@/components/ui/empty-state";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  await getPageContext("trajectory:read");
  return (
    <>
      <PageHeader title="Datasets" description="Curated, versioned subsets of trajectories and recovery segments, exported as SFT data." />
      <EmptyState title="No datasets yet" icon={<Database />}>
        Datasets are built from trajectory filters and labels; building and exporting them arrives with the curation feature.
      </EmptyState>
    </>
  );
}
