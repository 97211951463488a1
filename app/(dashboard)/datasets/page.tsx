import type { Metadata } from "next";
import Link from "next/link";
import { Database } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { listAllDatasets } from "@/lib/services/curation/view-datasets";
import { listHeldOutTasks } from "@/lib/services/curation/held-out";
import { can, PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { DatasetsList } from "@/components/datasets/datasets-list";
import { HeldOutPanel } from "@/components/datasets/held-out-panel";
import { LabelRuleForm } from "@/components/datasets/label-rule-form";
import { listSchemas } from "@/lib/services/annotation/manage-schemas";
import { listQueues } from "@/lib/services/annotation/manage-queues";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Code } from "@/components/ui/code";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const ctx = await getPageContext(PAGE_PERMISSIONS["/datasets"]);
  const canWrite = can(ctx.actor, "dataset:write");
  const [datasets, heldOut, schemas, queues] = await Promise.all([
    listAllDatasets(ctx),
    canWrite ? listHeldOutTasks(ctx) : [],
    canWrite ? listSchemas(ctx) : [],
    canWrite && can(ctx.actor, "annotation:write") ? listQueues(ctx) : [],
  ]);
  return (
    <>
      <PageHeader
        title="Datasets"
        description="Curated, versioned subsets of trajectories and recovery segments, exported as SFT data with provenance."
      />
      {datasets.length ? (
        <DatasetsList datasets={datasets} />
      ) : (
        <EmptyState title="No datasets yet" icon={<Database />}>
          Filter the{" "}
          <Link href="/trajectories" className="underline">
            trajectories
          </Link>{" "}
          and choose “Create dataset from filter”, or run <Code>npm run reterm -- dataset create NAME --outcome passed</Code>.
        </EmptyState>
      )}
      {canWrite ? (
        <Card className="mt-5">
          <CardHeader>
            <CardTitle>Create dataset from labels</CardTitle>
          </CardHeader>
          <CardContent>
            <LabelRuleForm
              schemas={schemas.filter((s) => s.active && s.kind !== "text").map((s) => ({ key: s.key, name: s.name, kind: s.kind }))}
              queues={queues.map((q) => ({ name: q.name, labelsPerItem: q.labelsPerItem }))}
            />
          </CardContent>
        </Card>
      ) : null}
      {canWrite ? (
        <Card className="mt-5">
          <CardHeader>
            <CardTitle>Held-out tasks</CardTitle>
          </CardHeader>
          <CardContent>
            <HeldOutPanel tasks={heldOut} />
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
