import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AuditEventRow } from "@/lib/services/audit/list-audit-events";

export function AuditTable({ events }: { events: AuditEventRow[] }) {
  if (!events.length) return <p className="p-4 text-sm text-muted-foreground">No events match.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>When (UTC)</TableHead>
          <TableHead>User</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>Target</TableHead>
          <TableHead>Details</TableHead>
          <TableHead>Address</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((e) => (
          <TableRow key={e.id} data-testid="audit-row">
            <TableCell className="font-mono text-xs">{e.at.toISOString().replace("T", " ").slice(0, 19)}</TableCell>
            <TableCell>{e.actorName}</TableCell>
            <TableCell className="font-mono text-xs">{e.action}</TableCell>
            <TableCell className="text-xs">{e.targetType ? `${e.targetType} ${e.targetId ?? ""}` : "—"}</TableCell>
            <TableCell className="max-w-md truncate font-mono text-xs" title={e.details ?? undefined}>
              {e.details ?? ""}
            </TableCell>
            <TableCell className="text-xs">{e.ipAddress ?? ""}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
