// One schema's agreement on a queue: κ / α, the confusion (two annotators) or coincidence matrix, and disagreements.
import Link from "next/link";
import type { SchemaAgreement } from "@/lib/services/annotation/compute-agreement";
import { describeTarget } from "@/lib/domain/annotation/describe-target";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

export function AgreementCard({ a }: { a: SchemaAgreement }) {
  const cell = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  // Only the values someone used: a 15-option taxonomy would otherwise be mostly empty rows.
  const label = (v: string) => a.valueLabels[v] ?? v;
  // Two trajectories of one task can disagree on the same target: those alone get the end of their id (a cuid's
  // start is its timestamp, alike for trajectories imported together).
  const named = (d: SchemaAgreement["disagreements"][number]) => `${d.taskName} · ${describeTarget(d.target)}`;
  const seen = new Map<string, number>();
  for (const d of a.disagreements) seen.set(named(d), (seen.get(named(d)) ?? 0) + 1);
  const used = a.matrix.values.map((_, i) => i).filter((i) => a.matrix.counts[i]!.some((x) => x) || a.matrix.counts.some((r) => r[i]));
  return (
    // min-w-0: a grid item; the matrix scrolls sideways in its own box instead of widening the page on a phone.
    <Card data-testid={`agreement-${a.schema}`} className="min-w-0">
      <CardHeader>
        <CardTitle>{a.schemaName}</CardTitle>
        <p className="text-xs text-muted-foreground">
          {a.items} item(s) labelled by at least two of {a.annotators} annotator(s)
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-3 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Cohen&apos;s κ</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="cohen-kappa">
              {fmt(a.cohenKappa)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Fleiss&apos; κ</dt>
            <dd className="text-lg font-semibold tabular-nums">{fmt(a.fleissKappa)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Krippendorff&apos;s α ({a.level})</dt>
            <dd className="text-lg font-semibold tabular-nums">{fmt(a.krippendorffAlpha)}</dd>
          </div>
        </dl>
        {a.items ? (
          <div className="overflow-x-auto">
            <p className="mb-1 text-xs text-muted-foreground">
              {a.matrixKind === "confusion" ? "Confusion matrix (rows: first annotator, columns: second)" : "Coincidence matrix"}
            </p>
            <table className="text-xs tabular-nums">
              <thead>
                <tr>
                  <th />
                  {used.map((j) => (
                    <th
                      key={j}
                      scope="col"
                      title={a.matrix.values[j]}
                      className="max-w-28 px-2 py-1 align-bottom font-medium text-muted-foreground"
                    >
                      {label(a.matrix.values[j]!)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {used.map((i) => (
                  <tr key={i}>
                    <th
                      scope="row"
                      title={a.matrix.values[i]}
                      className="px-2 py-1 text-left font-medium whitespace-nowrap text-muted-foreground"
                    >
                      {label(a.matrix.values[i]!)}
                    </th>
                    {used.map((j) => {
                      const x = a.matrix.counts[i]![j]!;
                      return (
                        <td key={j} className={`px-2 py-1 text-center ${i === j && x ? "bg-success/15" : x ? "bg-destructive/10" : ""}`}>
                          {x ? cell(x) : "·"}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            Disagreements ({a.disagreements.length})
          </h3>
          {a.disagreements.length ? (
            <ul className="flex max-h-64 flex-col gap-1.5 overflow-auto text-sm" data-testid="disagreements">
              {a.disagreements.slice(0, 200).map((d) => (
                <li key={d.targetKey} className="flex flex-col gap-0.5">
                  {/* Task and target in words: two trajectories of one task differ in their id, shown in full on hover. */}
                  <Link
                    className="text-primary hover:underline"
                    href={`/annotation/adjudicate/${d.trajectoryId}`}
                    title={`Trajectory ${d.trajectoryId}`}
                  >
                    <span className="font-medium">{d.taskName}</span> · {describeTarget(d.target)}
                    {seen.get(named(d))! > 1 ? <span className="font-mono text-xs"> · …{d.trajectoryId.slice(-6)}</span> : null}
                  </Link>
                  <span className="text-muted-foreground">{d.labels.map((l) => `${l.annotator}: ${label(l.value)}`).join(" · ")}</span>
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
