import Link from "next/link";
import type { CountBucket, DistributionsReport } from "@/lib/services/analytics/get-distributions";
import { firstErrorHref, groupRewardHref, recoveredHref, stepsHref } from "@/lib/validation/analytics-drill-down";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ChartCard } from "./chart-card";
import { HistogramChart } from "./histogram-chart";
import { pct } from "./figures";

const range = (lo: number, hi: number) => (lo === hi ? String(lo) : `${lo}–${hi}`);
const rewardRange = (lo: number, hi: number) => (lo === hi ? lo.toFixed(2) : `${lo.toFixed(2)}–${hi.toFixed(2)}`);
const num = "text-right tabular-nums";

function Empty({ children }: { children: string }) {
  return <p className="py-6 text-center text-sm text-muted-foreground">{children}</p>;
}

function CountTable({
  label,
  buckets,
  href,
  caption,
}: {
  label: string;
  buckets: CountBucket[];
  href?: (b: CountBucket, attempts: boolean) => string;
  caption: string;
}) {
  const cell = (b: CountBucket, attempts: boolean) => {
    const v = attempts ? b.attempts : b.rollouts;
    return href && v ? (
      <Link className="text-primary hover:underline" href={href(b, attempts)}>
        {v}
      </Link>
    ) : (
      v
    );
  };
  return (
    <Table aria-label={caption}>
      <TableHeader>
        <TableRow>
          <TableHead>{label}</TableHead>
          <TableHead className="text-right">Original rollouts</TableHead>
          <TableHead className="text-right">Recovery attempts</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {buckets.map((b) => (
          <TableRow key={b.lo}>
            <TableCell className="tabular-nums">{range(b.lo, b.hi)}</TableCell>
            <TableCell className={num}>{cell(b, false)}</TableCell>
            <TableCell className={num}>{cell(b, true)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const countCsv = (buckets: CountBucket[]) => ({
  columns: ["from", "to", "originalRollouts", "recoveryAttempts"],
  rows: buckets.map((b) => [b.lo, b.hi, b.rollouts, b.attempts]),
});

function LengthCard({ report }: { report: DistributionsReport }) {
  const href = (b: CountBucket, attempts: boolean) => stepsHref(report, b.lo, b.hi, { attempts });
  return (
    <ChartCard
      testId="length-card"
      title="Trajectory length"
      fileName="trajectory-length"
      description="Trajectories by number of steps. Click a bar to open those trajectories."
      csv={countCsv(report.length)}
      chart={
        report.length.length ? (
          <HistogramChart
            title="Trajectories by step count"
            xLabel="steps"
            names={{ a: "Original rollouts", b: "Recovery attempts" }}
            bars={report.length.map((b) => ({
              label: range(b.lo, b.hi),
              a: b.rollouts,
              b: b.attempts,
              aHref: href(b, false),
              bHref: href(b, true),
            }))}
          />
        ) : (
          <Empty>No trajectories match.</Empty>
        )
      }
      table={<CountTable label="Steps" buckets={report.length} href={href} caption="Trajectories by step count" />}
    />
  );
}

function FirstErrorCard({ report }: { report: DistributionsReport }) {
  const href = (b: CountBucket, attempts: boolean) => firstErrorHref(report, b.lo, b.hi, { attempts });
  return (
    <ChartCard
      testId="first-error-card"
      title="Step of first error"
      fileName="first-error-step"
      description={
        <>
          Trajectories by 0-based index of their first error step; {report.withoutError} matching trajectories have no error step. Click a
          bar to open those trajectories.
        </>
      }
      csv={countCsv(report.firstError)}
      chart={
        report.firstError.length ? (
          <HistogramChart
            title="Trajectories by step of first error"
            xLabel="step of first error"
            names={{ a: "Original rollouts", b: "Recovery attempts" }}
            bars={report.firstError.map((b) => ({
              label: range(b.lo, b.hi),
              a: b.rollouts,
              b: b.attempts,
              aHref: href(b, false),
              bHref: href(b, true),
            }))}
          />
        ) : (
          <Empty>No matching trajectory has an error step.</Empty>
        )
      }
      table={
        <CountTable label="First error at step" buckets={report.firstError} href={href} caption="Trajectories by step of first error" />
      }
    />
  );
}

function AttemptsCard({ report }: { report: DistributionsReport }) {
  const rows = report.attemptsToRecover;
  const total = rows.reduce((s, r) => s + r.forkPoints, 0);
  const label = (k: number | null) => (k === null ? "never" : String(k));
  return (
    <ChartCard
      testId="attempts-card"
      title="Attempts needed to recover"
      fileName="attempts-to-recover"
      description="Fork points with an attempt of known outcome, by position of their first successful attempt (never = no attempt succeeded). A bar opens one row per fork point: the attempt that recovered it (never: its first attempt)."
      csv={{ columns: ["attemptsNeeded", "forkPoints"], rows: rows.map((r) => [label(r.attempts), r.forkPoints]) }}
      chart={
        rows.length ? (
          <HistogramChart
            title="Fork points by attempts needed to recover"
            xLabel="attempts needed"
            names={{ a: "Fork points" }}
            bars={rows.map((r) => ({ label: label(r.attempts), a: r.forkPoints, aHref: recoveredHref(report, r.attempts) }))}
          />
        ) : (
          <Empty>No fork point has an attempt with a known outcome.</Empty>
        )
      }
      table={
        <Table aria-label="Fork points by attempts needed to recover">
          <TableHeader>
            <TableRow>
              <TableHead>Attempts needed</TableHead>
              <TableHead className="text-right">Fork points</TableHead>
              <TableHead className="text-right">Share</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={label(r.attempts)}>
                <TableCell>{label(r.attempts)}</TableCell>
                <TableCell className={num}>
                  <Link className="text-primary hover:underline" href={recoveredHref(report, r.attempts)}>
                    {r.forkPoints}
                  </Link>
                </TableCell>
                <TableCell className={num}>{pct(total ? r.forkPoints / total : null)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

function RewardCard({ report }: { report: DistributionsReport }) {
  const rows = report.siblingReward;
  const groups = rows.reduce((s, r) => s + r.groups, 0);
  const flat = rows.reduce((s, r) => s + r.flatGroups, 0);
  const href = (i: number, spread: boolean) => groupRewardHref(report, rows[i]!.lo, rows[i]!.hi, { last: i === rows.length - 1, spread });
  const link = (v: number, to: string) =>
    v ? (
      <Link className="text-primary hover:underline" href={to}>
        {v}
      </Link>
    ) : (
      v
    );
  return (
    <ChartCard
      testId="reward-card"
      title="Reward per sibling group"
      fileName="sibling-group-reward"
      description={
        <>
          Mean reward of the attempts at each fork point (a bar opens one row per group: its first rewarded attempt). {flat} of {groups}{" "}
          groups have two or more rewarded attempts that all got the same reward (no spread to learn from).
        </>
      }
      csv={{
        columns: ["meanRewardFrom", "meanRewardTo", "groups", "groupsWithoutSpread"],
        rows: rows.map((r) => [r.lo, r.hi, r.groups, r.flatGroups]),
      }}
      chart={
        rows.length ? (
          <HistogramChart
            title="Sibling groups by mean reward"
            xLabel="mean reward of the group"
            names={{ a: "Groups with spread", b: "Groups without spread" }}
            bars={rows.map((r, i) => ({
              label: rewardRange(r.lo, r.hi),
              a: r.groups - r.flatGroups,
              b: r.flatGroups,
              aHref: href(i, true),
              bHref: href(i, false),
            }))}
          />
        ) : (
          <Empty>No recovery attempt has a reward.</Empty>
        )
      }
      table={
        <Table aria-label="Sibling groups by mean reward">
          <TableHeader>
            <TableRow>
              <TableHead>Mean reward</TableHead>
              <TableHead className="text-right">Groups</TableHead>
              <TableHead className="text-right">With spread</TableHead>
              <TableHead className="text-right">Without spread</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r, i) => (
              <TableRow key={r.lo}>
                <TableCell className="tabular-nums">{rewardRange(r.lo, r.hi)}</TableCell>
                <TableCell className={num}>{r.groups}</TableCell>
                <TableCell className={num}>{link(r.groups - r.flatGroups, href(i, true))}</TableCell>
                <TableCell className={num}>{link(r.flatGroups, href(i, false))}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

/** Length, first-error step, attempts to recover and sibling-group reward for the filtered runs. */
export function DistributionsSection({ report }: { report: DistributionsReport }) {
  return (
    <section aria-labelledby="distributions-heading" className="flex flex-col gap-3" data-testid="distributions">
      <h2 id="distributions-heading" className="text-lg font-semibold">
        Distributions
      </h2>
      <div className="grid gap-5 xl:grid-cols-2">
        <LengthCard report={report} />
        <FirstErrorCard report={report} />
        <AttemptsCard report={report} />
        <RewardCard report={report} />
      </div>
    </section>
  );
}
