import type { VersionView } from "@/lib/services/curation/view-datasets";
import { formatCount, formatDateTime } from "@/lib/format";
import { Badge } from "@/components/ui/badge";
import { EXPORT_FORMATS } from "@/lib/domain/curation/types";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export interface VersionDiff {
  added: number;
  removed: number;
}

const top = (m: Record<string, number>, n = 3) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${formatCount(v)}`)
    .join(", ");

/** Versions newest first: state, size, change from the previous version, manifest highlights, hash. */
export function VersionsList({ versions, diffs }: { versions: VersionView[]; diffs: Map<number, VersionDiff> }) {
  return (
    <Table aria-label="Versions">
      <TableHeader>
        <TableRow>
          <TableHead>Version</TableHead>
          <TableHead className="text-right">Items</TableHead>
          <TableHead>Change</TableHead>
          <TableHead>Manifest</TableHead>
          <TableHead>Hash</TableHead>
          <TableHead>Frozen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {versions.map((v) => {
          const d = diffs.get(v.version);
          return (
            <TableRow key={v.id} data-testid="version-row">
              <TableCell>
                <span className="font-medium">v{v.version}</span>{" "}
                {v.frozenAt ? <Badge variant="success">frozen</Badge> : <Badge variant="warning">draft</Badge>}
                {v.manifest?.leakageOverride ? (
                  <Badge variant="destructive" className="ml-1" title={v.manifest.leakageOverride.reason}>
                    held-out override
                  </Badge>
                ) : null}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(v.itemCount)}</TableCell>
              <TableCell className="tabular-nums">
                {d ? (
                  <>
                    <span className="text-success">+{formatCount(d.added)}</span> /{" "}
                    <span className="text-destructive">−{formatCount(d.removed)}</span>
                  </>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </TableCell>
              <TableCell
                className="max-w-md truncate text-xs text-muted-foreground"
                title={v.manifest ? JSON.stringify(v.manifest.byOutcome) : undefined}
              >
                {v.manifest
                  ? `${formatCount(v.manifest.tokens.total)} tokens · ${top(v.manifest.byOutcome)} · ${top(v.manifest.byErrorCategory)}`
                  : "—"}
              </TableCell>
              <TableCell className="font-mono text-xs">{v.contentHash ? v.contentHash.slice(0, 12) : "—"}</TableCell>
              <TableCell className="text-muted-foreground">
                {v.frozenAt ? formatDateTime(v.frozenAt) : "—"}
                {v.frozenAt ? <StoredExports formats={v.storedExports} /> : null}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** Whether exports of a frozen version stream stored bytes (fast) or are rendered from the items (same bytes, slower). */
function StoredExports({ formats }: { formats: string[] }) {
  const all = formats.length >= EXPORT_FORMATS.length;
  const title = all
    ? `Exports of this version stream the files stored after freezing (${formats.join(", ")}).`
    : `Stored: ${formats.length ? formats.join(", ") : "none"}. Formats not stored yet are rendered from the items when exported (the same bytes, slower); they are stored in the background after freezing, or with \`reterm dataset store-exports\`.`;
  return (
    <Badge variant={all ? "default" : "outline"} className="ml-2" title={title} data-testid="stored-exports">
      {all ? "exports stored" : `${formats.length}/${EXPORT_FORMATS.length} exports stored`}
    </Badge>
  );
}
