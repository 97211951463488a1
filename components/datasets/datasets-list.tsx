import Link from "next/link";
import type { DatasetSummary } from "@/lib/services/curation/view-datasets";
import { formatCount, formatDateTime } from "@/lib/format";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export function DatasetsList({ datasets }: { datasets: DatasetSummary[] }) {
  return (
    <div className="rounded-lg border bg-card">
      <Table aria-label="Datasets">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Items</TableHead>
            <TableHead className="text-right">Count</TableHead>
            <TableHead>Latest version</TableHead>
            <TableHead>Updated</TableHead>
            <TableHead>Owner</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {datasets.map((d) => (
            <TableRow key={d.id} data-testid="dataset-row">
              <TableCell>
                <Link href={`/datasets/${encodeURIComponent(d.name)}`} className="font-medium hover:underline">
                  {d.name}
                </Link>
                {d.description ? <p className="max-w-md truncate text-xs text-muted-foreground">{d.description}</p> : null}
              </TableCell>
              <TableCell>{d.itemKind === "segment" ? "Recovery segments" : "Trajectories"}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(d.latest?.itemCount ?? 0)}</TableCell>
              <TableCell>
                {d.latest?.frozenAt ? (
                  <Badge variant="success">v{d.latest.version} frozen</Badge>
                ) : (
                  <Badge variant="warning">draft{d.frozenCount ? ` (after v${d.frozenCount})` : ""}</Badge>
                )}
              </TableCell>
              <TableCell className="text-muted-foreground">{formatDateTime(d.updatedAt)}</TableCell>
              <TableCell className="text-muted-foreground">{d.createdBy}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
