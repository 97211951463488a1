import type { Metadata } from "next";
import { getPageContext } from "@/lib/services/page-context";
import { getStats } from "@/lib/services/get-stats";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { formatCount } from "@/lib/format";

export const metadata: Metadata = { title: "Analytics" };

export default async function AnalyticsPage() {
  const stats = await getStats(await getPageContext());
  return (
    <>
      <PageHeader title="Analytics" description="What is in the database. Error mixes and recovery rates by run arrive with the analytics feature." />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="stats">
        {Object.entries(stats).map(([k, v]) => (
          <Card key={k}>
            <CardContent>
              <dt className="text-xs text-muted-foreground capitalize">{k.replace(/([A-Z])/g, " $1")}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{formatCount(v)}</dd>
            </CardContent>
          </Card>
        ))}
      </dl>
    </>
  );
}
