// The detector's precision per error category against annotators' decisions on its suggestions — the project's own
// quality signal for the detector (lib/services/annotation/suggestions/suggestion-precision.ts).
import type { SuggestionPrecision } from "@/lib/services/annotation/suggestions/suggestion-precision";
import type { PrecisionRow } from "@/lib/domain/annotation/suggestions";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

const pct = (x: number) => `${Math.round(x * 100)}%`;

function Row({ r, overall }: { r: PrecisionRow; overall?: boolean }) {
  return (
    <TableRow data-testid="precision-row" data-category={r.category} className={overall ? "font-medium" : undefined}>
      <TableCell>{overall ? "All categories" : errorCategoryLabel(r.category)}</TableCell>
      <TableCell className="text-right tabular-nums">{r.decided}</TableCell>
      <TableCell className="text-right tabular-nums">{r.accepted}</TableCell>
      <TableCell className="text-right tabular-nums">{r.changed}</TableCell>
      <TableCell className="text-right tabular-nums">{r.rejected}</TableCell>
      <TableCell className="text-right tabular-nums">
        {r.precision === null ? "—" : pct(r.precision)}
        {r.ci ? (
          <span className="ml-1 text-xs text-muted-foreground">
            ({pct(r.ci.lo)}–{pct(r.ci.hi)})
          </span>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

export function SuggestionPrecisionTable({ p }: { p: SuggestionPrecision }) {
  return (
    <Card aria-label="Detector precision">
      <CardHeader>
        <CardTitle>Detector precision</CardTitle>
        <p className="text-xs text-muted-foreground">
          Of annotators&apos; decisions on the error detector&apos;s suggestions, the share accepted as suggested (Wilson 95% interval).
          Every annotator&apos;s decision counts; changed and rejected suggestions count against it.
        </p>
      </CardHeader>
      <CardContent>
        {p.categories.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No decisions yet: accept (a), change (c) or reject (x) suggestions in a trajectory&apos;s labelling panel.
          </p>
        ) : (
          <Table data-testid="detector-precision">
            <TableHeader>
              <TableRow>
                <TableHead>Category</TableHead>
                <TableHead className="text-right">Decided</TableHead>
                <TableHead className="text-right">Accepted</TableHead>
                <TableHead className="text-right">Changed</TableHead>
                <TableHead className="text-right">Rejected</TableHead>
                <TableHead className="text-right">Precision (95% CI)</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.categories.map((r) => (
                <Row key={r.category} r={r} />
              ))}
              <Row r={p.overall} overall />
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
