import type { getStats } from "@/lib/services/browse/get-stats";
import { formatCount } from "@/lib/format";

/** What is in the database, as one line of counts. */
export function DatabaseCounts({ stats }: { stats: Awaited<ReturnType<typeof getStats>> }) {
  return (
    <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs text-muted-foreground" data-testid="stats">
      {Object.entries(stats).map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt className="capitalize">{k.replace(/([A-Z])/g, " $1").toLowerCase()}</dt>
          <dd className="font-medium tabular-nums text-foreground">{formatCount(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
