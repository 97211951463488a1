import type { UploadResult } from "./upload-file";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** The same summary the CLI prints: per file, imported / duplicates / failed, then every failure with its location. */
export function ImportSummary({ name, result }: { name: string; result: UploadResult }) {
  return (
    <div className="flex flex-col gap-3" data-testid="import-summary">
      <p className="text-sm">
        <span className="font-medium">{name}</span>: <span data-testid="summary-imported">{result.imported}</span> imported,{" "}
        <span data-testid="summary-duplicates">{result.duplicates}</span> skipped as duplicates,{" "}
        <span data-testid="summary-failed">{result.failed}</span> failed
        {result.inferredForks ? `, ${result.inferredForks} fork links inferred` : ""}.
        {result.rolledBack ? " Strict mode: nothing was imported." : ""}
      </p>
      <div className="rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>File</TableHead>
              <TableHead>Format</TableHead>
              <TableHead className="text-right">Imported</TableHead>
              <TableHead className="text-right">Duplicates</TableHead>
              <TableHead className="text-right">Failed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.files.map((f) => (
              <TableRow key={f.file}>
                <TableCell className="max-w-md truncate font-mono text-xs" title={f.file}>
                  {f.file}
                  {f.skipped ? <span className="ml-2 text-muted-foreground">skipped: {f.skipped}</span> : null}
                </TableCell>
                <TableCell>{f.format ?? "—"}</TableCell>
                <TableCell className="text-right tabular-nums">{f.imported}</TableCell>
                <TableCell className="text-right tabular-nums">{f.duplicates}</TableCell>
                <TableCell className="text-right tabular-nums">{f.failed}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {result.errors.length ? (
        <ul
          className="flex max-h-64 flex-col gap-1 overflow-auto rounded-md border border-destructive/40 bg-destructive/5 p-3 font-mono text-xs"
          aria-label="Import errors"
          data-testid="import-errors"
        >
          {result.errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
      {result.warnings.length ? (
        <ul
          className="flex max-h-48 flex-col gap-1 overflow-auto rounded-md border border-warning/50 bg-warning/10 p-3 font-mono text-xs"
          aria-label="Import warnings"
          data-testid="import-warnings"
        >
          {result.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
