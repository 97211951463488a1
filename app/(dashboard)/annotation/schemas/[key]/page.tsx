import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { z } from "zod";
import { getPageContext } from "@/lib/services/page-context";
import { getSchema } from "@/lib/services/annotation/manage-schemas";
import { isAppError } from "@/lib/errors";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { SchemaForm } from "@/components/annotation/schema-editor/schema-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit label schema" };

const paramsSchema = z.object({ key: z.string().min(1).max(100) });

export default async function LabelSchemaPage({
  params,
  searchParams,
}: {
  params: Promise<Record<string, string>>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await getPageContext("schema:write");
  const p = paramsSchema.safeParse(await params);
  if (!p.success) notFound();
  const key = decodeURIComponent(p.data.key);
  const saved = (await searchParams).saved === "1";
  const schema =
    key === "new"
      ? null
      : await getSchema(ctx, key).catch((e: unknown) => (isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e)));
  if (key !== "new" && !schema) notFound();
  return (
    <div className="flex flex-col gap-4">
      <Link href="/annotation/schemas" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden /> Label schemas
      </Link>
      <PageHeader
        title={schema ? schema.name : "New label schema"}
        description={
          schema
            ? `${schema.labelCount} label${schema.labelCount === 1 ? "" : "s"} use this schema; saving never rewrites them.`
            : "Categorical (with a hierarchy), ordinal scale, boolean, text or ranking."
        }
      />
      {saved ? (
        <p role="status" className="text-sm text-success">
          Saved.
        </p>
      ) : null}
      <Card>
        <CardContent className="pt-4">
          <SchemaForm key={schema?.updatedAt ?? "new"} schema={schema} />
        </CardContent>
      </Card>
    </div>
  );
}
