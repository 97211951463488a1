import type { Metadata } from "next";
import Link from "next/link";
import { Download, Plus } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { listSchemasForEditor } from "@/lib/services/annotation/manage-schemas";
import { PageHeader } from "@/components/ui/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { SchemaTable } from "@/components/annotation/schema-editor/schema-table";
import { ImportSchemasForm } from "@/components/annotation/schema-editor/import-schemas-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Label schemas" };

export default async function LabelSchemasPage() {
  const ctx = await getPageContext("schema:write");
  const schemas = await listSchemasForEditor(ctx);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Label schemas"
        description="What annotators label and how. Editing a schema never rewrites existing labels: removed options stay readable as retired."
        actions={
          <>
            <Button asChild variant="outline" size="sm">
              <a href="/api/v1/label-schemas?download=1" download>
                <Download /> Export JSON
              </a>
            </Button>
            <Button asChild size="sm">
              <Link href="/annotation/schemas/new">
                <Plus /> New schema
              </Link>
            </Button>
          </>
        }
      />
      <Card>
        <CardContent className="pt-4">
          <SchemaTable schemas={schemas} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Import</CardTitle>
          <p className="text-xs text-muted-foreground">
            A JSON file as exported here: new keys are created, existing ones updated (their options merged, never dropped). A file with any
            problem writes nothing.
          </p>
        </CardHeader>
        <CardContent>
          <ImportSchemasForm />
        </CardContent>
      </Card>
    </div>
  );
}
