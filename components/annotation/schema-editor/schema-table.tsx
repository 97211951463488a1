// The schema list: kind, targets, options (active / retired) and how many labels use each schema.
import Link from "next/link";
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export function SchemaTable({ schemas }: { schemas: (LabelSchemaView & { labelCount: number })[] }) {
  return (
    <Table aria-label="Label schemas">
      <TableHeader>
        <TableRow>
          <TableHead>Schema</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead>Targets</TableHead>
          <TableHead className="text-right">Options</TableHead>
          <TableHead className="text-right">Labels</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {schemas.map((s) => {
          const retired = s.options.filter((o) => o.retired).length;
          return (
            <TableRow key={s.id}>
              <TableCell>
                <Link href={`/annotation/schemas/${encodeURIComponent(s.key)}`} className="font-medium text-primary hover:underline">
                  {s.name}
                </Link>
                <span className="ml-2 font-mono text-xs text-muted-foreground">{s.key}</span>
              </TableCell>
              <TableCell>{s.kind}</TableCell>
              <TableCell className="text-xs text-muted-foreground">{s.targets.map((t) => t.replace("_", " ")).join(", ")}</TableCell>
              <TableCell className="text-right tabular-nums">
                {s.options.length - retired}
                {retired ? <span className="text-muted-foreground"> + {retired} retired</span> : null}
              </TableCell>
              <TableCell className="text-right tabular-nums">{s.labelCount}</TableCell>
              <TableCell>{s.active ? <Badge variant="success">active</Badge> : <Badge variant="outline">inactive</Badge>}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
