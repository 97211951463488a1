import Link from "next/link";
import type { AnnotationAnalytics } from "@/lib/services/analytics/get-annotation-analytics";
import { labelledHref } from "@/lib/validation/analytics-drill-down";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Button } from "@/components/ui/button";
import { ChartCard } from "./chart-card";
import { PeriodBarChart } from "./period-bar-chart";
import { AgreementChart } from "./agreement-chart";
import { round } from "./figures";

const num = "text-right tabular-nums";
const coef = (v: number | null) => (v === null ? "—" : v.toFixed(3));

function Empty({ children }: { children: string }) {
  return <p className="py-6 text-center text-sm text-muted-foreground">{children}</p>;
}

function LabelsCard({ a }: { a: AnnotationAnalytics }) {
  const schemas = [...new Set(a.labels.map((l) => l.schema))].sort();
  const cell = (p: string, s: string) => a.labels.find((l) => l.period === p && l.schema === s);
  const href = (s: string, p: string) => labelledHref(a, s, p, a.period);
  return (
    <ChartCard
      testId="labels-card"
      title={`Labels per ${a.period}`}
      fileName={`labels-per-${a.period}`}
      description="Labels made in each period (UTC), by schema. A bar opens the trajectories labelled with that schema in that period (the table view gives their number)."
      csv={{
        columns: ["period", "schema", "labels", "trajectories"],
        rows: a.labels.map((l) => [l.period, l.schema, l.labels, l.trajectories]),
      }}
      chart={
        a.labels.length ? (
          <PeriodBarChart
            title={`Labels per ${a.period} by schema`}
            xLabel={`${a.period} starting`}
            testId="labels-bar"
            periods={a.periods}
            series={schemas.map((s) => ({
              key: s,
              name: s,
              values: a.periods.map((p) => ({ value: cell(p, s)?.labels ?? 0, href: href(s, p) })),
            }))}
          />
        ) : (
          <Empty>No labels yet.</Empty>
        )
      }
      table={
        <Table aria-label={`Labels per ${a.period} by schema`}>
          <TableHeader>
            <TableRow>
              <TableHead>Period</TableHead>
              <TableHead>Schema</TableHead>
              <TableHead className="text-right">Labels</TableHead>
              <TableHead className="text-right">Trajectories</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {a.labels.map((l) => (
              <TableRow key={`${l.period}-${l.schema}`}>
                <TableCell className="tabular-nums">{l.period}</TableCell>
                <TableCell>{l.schema}</TableCell>
                <TableCell className={num}>{l.labels}</TableCell>
                <TableCell className={num}>
                  <Link className="text-primary hover:underline" href={href(l.schema, l.period)}>
                    {l.trajectories}
                  </Link>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

function CompletedCard({ a }: { a: AnnotationAnalytics }) {
  const queues = [...new Map(a.completed.map((c) => [c.queueId, c.queue]))].sort((x, y) => x[1].localeCompare(y[1]));
  const cell = (p: string, q: string) => a.completed.find((c) => c.period === p && c.queueId === q)?.items ?? 0;
  const queueHref = (id: string) => `/annotation/queues/${encodeURIComponent(id)}`;
  return (
    <ChartCard
      testId="completed-card"
      title={`Queue items completed per ${a.period}`}
      fileName={`queue-items-per-${a.period}`}
      description="Items whose last required label was finished in each period, by queue. A bar opens the queue."
      csv={{ columns: ["period", "queue", "itemsCompleted"], rows: a.completed.map((c) => [c.period, c.queue, c.items]) }}
      chart={
        a.completed.length ? (
          <PeriodBarChart
            title={`Queue items completed per ${a.period}`}
            xLabel={`${a.period} starting`}
            testId="completed-bar"
            periods={a.periods}
            series={queues.map(([id, name]) => ({
              key: id,
              name,
              values: a.periods.map((p) => ({ value: cell(p, id), href: queueHref(id) })),
            }))}
          />
        ) : (
          <Empty>No queue item is complete yet.</Empty>
        )
      }
      table={
        <Table aria-label={`Queue items completed per ${a.period}`}>
          <TableHeader>
            <TableRow>
              <TableHead>Period</TableHead>
              <TableHead>Queue</TableHead>
              <TableHead className="text-right">Items completed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {a.completed.map((c) => (
              <TableRow key={`${c.period}-${c.queueId}`}>
                <TableCell className="tabular-nums">{c.period}</TableCell>
                <TableCell>
                  <Link className="text-primary hover:underline" href={queueHref(c.queueId)}>
                    {c.queue}
                  </Link>
                </TableCell>
                <TableCell className={num}>{c.items}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

function AgreementCard({ a }: { a: AnnotationAnalytics }) {
  const schemas = a.agreement ?? [];
  const periods = [...new Set(schemas.flatMap((s) => s.windows.map((w) => w.period)))].sort();
  const rows = schemas.flatMap((s) => s.windows.map((w) => ({ schema: s.schema, ...w })));
  return (
    <ChartCard
      testId="agreement-card"
      title="Agreement over time"
      fileName={`agreement-per-${a.period}`}
      description={
        <>
          Krippendorff&apos;s α per schema and period ({a.period}), over items at least two annotators labelled; an item counts in the
          period of its latest label. Cohen&apos;s κ applies with exactly two annotators, Fleiss&apos; κ when every item has the same number
          of labels. The table links to the trajectories labelled in that period (a superset of the items).
        </>
      }
      csv={{
        columns: ["schema", "period", "items", "annotators", "cohenKappa", "fleissKappa", "krippendorffAlpha"],
        rows: rows.map((r) => [
          r.schema,
          r.period,
          r.items,
          r.annotators,
          round(r.cohenKappa),
          round(r.fleissKappa),
          round(r.krippendorffAlpha),
        ]),
      }}
      chart={
        rows.length ? (
          <AgreementChart
            periods={periods}
            series={schemas.map((s) => ({
              key: s.schema,
              name: s.name,
              alpha: periods.map((p) => s.windows.find((w) => w.period === p)?.krippendorffAlpha ?? null),
            }))}
          />
        ) : (
          <Empty>No item has labels from two annotators yet.</Empty>
        )
      }
      table={
        <Table aria-label="Agreement per schema and period">
          <TableHeader>
            <TableRow>
              <TableHead>Schema</TableHead>
              <TableHead>Period</TableHead>
              <TableHead className="text-right">Items</TableHead>
              <TableHead className="text-right">Annotators</TableHead>
              <TableHead className="text-right">Cohen κ</TableHead>
              <TableHead className="text-right">Fleiss κ</TableHead>
              <TableHead className="text-right">Krippendorff α</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {schemas.map((s) => (
              <TableRow key={`${s.schema}-all`} className="font-medium">
                <TableCell>{s.schema}</TableCell>
                <TableCell>all periods</TableCell>
                <TableCell className={num}>{s.overall.items}</TableCell>
                <TableCell className={num}>{s.overall.annotators}</TableCell>
                <TableCell className={num}>{coef(s.overall.cohenKappa)}</TableCell>
                <TableCell className={num}>{coef(s.overall.fleissKappa)}</TableCell>
                <TableCell className={num}>{coef(s.overall.krippendorffAlpha)}</TableCell>
              </TableRow>
            ))}
            {rows.map((r) => (
              <TableRow key={`${r.schema}-${r.period}`}>
                <TableCell>{r.schema}</TableCell>
                <TableCell className="tabular-nums">
                  <Link className="text-primary hover:underline" href={labelledHref(a, r.schema, r.period, a.period)}>
                    {r.period}
                  </Link>
                </TableCell>
                <TableCell className={num}>{r.items}</TableCell>
                <TableCell className={num}>{r.annotators}</TableCell>
                <TableCell className={num}>{coef(r.cohenKappa)}</TableCell>
                <TableCell className={num}>{coef(r.fleissKappa)}</TableCell>
                <TableCell className={num}>{coef(r.krippendorffAlpha)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

/** Annotation progress (labels, completed queue items) and agreement per period; `periodHref` switches day/week. */
export function AnnotationSection({ report, periodHref }: { report: AnnotationAnalytics; periodHref: (p: "day" | "week") => string }) {
  return (
    <section aria-labelledby="annotation-heading" className="flex flex-col gap-3" data-testid="annotation-analytics">
      <div className="flex items-center gap-2">
        <h2 id="annotation-heading" className="text-lg font-semibold">
          Annotation progress and agreement
        </h2>
        <div className="ml-auto flex gap-1" role="group" aria-label="Period">
          {(["day", "week"] as const).map((p) => (
            <Button key={p} asChild size="sm" variant={report.period === p ? "secondary" : "ghost"}>
              <Link href={periodHref(p)} aria-current={report.period === p ? "true" : undefined}>
                per {p}
              </Link>
            </Button>
          ))}
        </div>
      </div>
      {report.periods.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No labels yet: label trajectories (or work through an annotation queue) to see progress and agreement here.
        </p>
      ) : (
        <div className="grid gap-5 xl:grid-cols-2">
          <LabelsCard a={report} />
          <CompletedCard a={report} />
          {report.agreement ? <AgreementCard a={report} /> : null}
        </div>
      )}
    </section>
  );
}
