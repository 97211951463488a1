// One schema's agreement on a queue: κ / α, the confusion (two annotators) or coincidence matrix, and disagreements.
import Link from "next/link";
import type { SchemaAgreement } from "@/lib/services/annotation/compute-agreement";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

export function AgreementCard({ a }: { a: SchemaAgreement }) {
  const cell = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  return (
    <Card data-testid={`agreement-${a.schema}`}>
      <CardHeader>
        <CardTitle>{a.schema}</CardTitle>
        <p className="text-xs text-muted-foreground">{a.items} item(s) labelled by at least two of {a.annotators} annotator(s)</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-3 text-sm">
          <div><dt className="text-xs text-muted-foreground">Cohen&apos;s κ</dt><dd className="text-lg font-semibold tabular-nums" data-testid="cohen-kappa">{fmt(a.cohenKappa)}</dd></div>
          <div><dt className="text-xs text-muted-foreground">Fleiss&apos; κ</dt><dd className="text-lg font-semibold tabular-nums">{fmt(a.fleissKappa)}</dd></div>
          <div><dt className="text-xs text-muted-foreground">Krippendorff&apos;s α ({a.level})</dt><dd className="text-lg font-semibold tabular-nums">{fmt(a.krippendorffAlpha)}</dd></div>
        </dl>
        {a.items ? (
          <div className="overflow-x-auto">
            <p className="mb-1 text-xs text-muted-foreground">{a.matrixKind === "confusion" ? "Confusion matrix (rows: first annotator, columns: second)" : "Coincidence matrix"}</p>
            <table className="text-xs tabular-nums">
              <thead>
                <tr><th />{a.matrix.values.map((v) => <th key={v} className="px-2 py-1 font-medium text-muted-foreground">{v}</th>)}</tr>
              </thead>
              <tbody>
                {a.matrix.values.map((v, i) => (
                  <tr key={v}>
                    <th className="px-2 py-1 text-left font-medium text-muted-foreground">{v}</th>
                    {a.matrix.counts[i]!.map((x, j) => <td key={j} className={`px-2 py-1 text-center ${i === j && x ? "bg-success/15" : x ? "bg-destructive/10" : ""}`}>{x ? cell(x) : "·"}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Disagreements ({a.disagreements.length})</h3>
          {a.disagreements.length ? (
            <ul className="flex max-h-64 flex-col gap-1 overflow-auto text-sm" data-testid="disagreements">
              {a.disagreements.slice(0, 200).map((d) => (
                <li key={d.targetKey} className="flex flex-wrap gap-2">
                  <Link className="font-mono text-xs text-primary hover:underline" href={`/annotation/adjudicate/${d.trajectoryId}`}>{d.targetKey.replace(`:${d.trajectoryId}`, ` ${d.trajectoryId.slice(0, 8)}…`)}</Link>
                  <span className="text-muted-foreground">{d.labels.map((l) => `${l.annotator}: ${l.value}`).join(" · ")}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">None.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
