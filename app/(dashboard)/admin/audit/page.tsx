import type { Metadata } from "next";
import { Download } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { AuditTable } from "@/components/accounts/audit-table";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { auditQuerySchema, listAuditEvents } from "@/lib/services/audit/list-audit-events";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await getPageContext(PAGE_PERMISSIONS["/admin/audit"]);
  const sp = await searchParams;
  const parsed = auditQuerySchema.safeParse({ action: sp.action, actor: sp.actor });
  const query = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const events = await listAuditEvents(ctx, { ...query, limit: 200 });
  const exportQuery = new URLSearchParams({
    ...(query.action ? { action: query.action } : {}),
    ...(query.actor ? { actor: query.actor } : {}),
    limit: "10000",
  });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what, when: sign-ins, imports, exports, label and schema changes, user and token changes. Latest 200 shown."
        actions={
          <Button variant="outline" asChild>
            <a href={`/api/v1/audit?${exportQuery}`} download>
              <Download aria-hidden /> Export JSONL
            </a>
          </Button>
        }
      />
      <form className="mb-4 flex flex-wrap items-end gap-2 text-sm" method="get">
        <label className="flex flex-col gap-1">
          Action starts with
          <input
            name="action"
            defaultValue={query.action ?? ""}
            placeholder="e.g. auth."
            className="h-8 rounded-md border border-input bg-background px-2"
          />
        </label>
        <label className="flex flex-col gap-1">
          User
          <input name="actor" defaultValue={query.actor ?? ""} className="h-8 rounded-md border border-input bg-background px-2" />
        </label>
        <Button type="submit" size="sm" variant="secondary">
          Filter
        </Button>
      </form>
      <Card>
        <CardContent className="p-0">
          <AuditTable events={events} />
        </CardContent>
      </Card>
    </>
  );
}
