// One schema's agreement on a queue: κ / α, the confusion (two annotators) or coincidence matrix, and disagreements.
import Link from "next/link";
import type { SchemaAgreement } from "@/lib/services/annotation/compute-agreement";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

/** "steps:<id>:1-2" → "steps 1–2" (the key format is defined in lib/domain/annotation/targets.ts). */
function targetText(key: string): string {
  const [kind, , rest] = key.split(":");
  if (kind === "steps" && rest) return `steps ${rest.replace("-", "–")}`;
  if (kind === "fork") return `fork point at step ${rest}`;
  return kind === "attempt" ? "attempt" : "whole trajectory";
}

export function AgreementCard({ a }: { a: SchemaAgreement }) {
  const cell = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  // Only the values someone used: a 15-option taxonomy would otherwise be mostly empty rows.
  const used = a.matrix.values.map((_, i) => i).filter((i) => a.matrix.counts[i]!.some((x) => x) || a.matrix.counts.some((r) => r[i]));
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
                <tr><th />{used.map((j) => <th key={j} className="px-2 py-1 font-medium text-muted-foreground">{a.matrix.values[j]}</th>)}</tr>
              </thead>
              <tbody>
                {used.map((i) => (
                  <tr key={i}>
                    <th className="px-2 py-1 text-left font-medium text-muted-foreground">{a.matrix.values[i]}</th>
                    {used.map((j) => {
                      const x = a.matrix.counts[i]![j]!;
                      return <td key={j} className={`px-2 py-1 text-center ${i === j && x ? "bg-success/15" : x ? "bg-destructive/10" : ""}`}>{x ? cell(x) : "·"}</td>;
                    })}
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
                  <Link className="text-primary hover:underline" href={`/annotation/adjudicate/${d.trajectoryId}`}>{targetText(d.targetKey)} of <span className="font-mono text-xs">{d.trajectoryId.slice(0, 10)}…</span></Link>
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
