// The verifier's output beside the replay, and the tests whose state changed during the trajectory (for an
// attempt: after its fork point), each change linked to the step where it shows.
import Link from "next/link";
import { FlaskConical } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { TerminalText } from "@/components/steps/terminal-text";
import { replayHref } from "@/lib/domain/replay/player-options";
import type { TestStatus } from "@/lib/domain/replay/test-results";
import type { TestReport } from "@/lib/services/replay";

const STATUS_VARIANT: Record<TestStatus, "success" | "destructive" | "outline"> = {
  passed: "success",
  failed: "destructive",
  skipped: "outline",
};

export async function VerifierPanel({ report, trajectoryId }: { report: Promise<TestReport>; trajectoryId: string }) {
  const r = await report;
  const failed = r.verifierTests.filter((t) => t.status === "failed");
  return (
    <Card data-testid="verifier-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="size-4" aria-hidden /> Verifier and tests
        </CardTitle>
        {r.verifierTests.length ? (
          <p className="text-xs text-muted-foreground">
            Verifier: {r.verifierTests.length - failed.length} passed, {failed.length} failed
            {failed.length
              ? ` (${failed
                  .map((t) => t.name)
                  .slice(0, 3)
                  .join(", ")}${failed.length > 3 ? ", …" : ""})`
              : ""}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {r.verifierOutput ? (
          <TerminalText text={r.verifierOutput} testId="verifier-output" className="max-h-48" />
        ) : (
          <p className="text-sm text-muted-foreground">No verifier output was imported for this trajectory.</p>
        )}
        <div>
          <h3 className="mb-1.5 text-xs font-semibold">
            Tests that changed state{r.sinceStep > 0 ? ` after the fork (from step #${r.sinceStep})` : ""}
          </h3>
          {r.testsSeen === 0 ? (
            <p className="text-sm text-muted-foreground">
              The steps&apos; outputs contain no per-test results, so test changes cannot be shown.
            </p>
          ) : r.changed.length === 0 ? (
            <p className="text-sm text-muted-foreground">None of the {r.testsSeen} tests seen in the output changed state.</p>
          ) : (
            <ul className="flex flex-col gap-1.5 text-xs" data-testid="changed-tests">
              {r.changed.map((t) => (
                <li key={t.name} className="flex flex-wrap items-center gap-1.5">
                  <span className="font-mono">{t.name}</span>
                  {t.changes.map((c, i) => (
                    <span key={i} className="contents">
                      {t.hiddenChanges > 0 && i === t.changes.length / 2 ? (
                        <span className="text-muted-foreground">… {t.hiddenChanges} more …</span>
                      ) : null}
                      <Link prefetch={false} href={replayHref(trajectoryId, { step: c.stepIndex })} title={`Step ${c.stepIndex}`}>
                        <Badge variant={STATUS_VARIANT[c.status]}>
                          #{c.stepIndex} {c.status}
                        </Badge>
                      </Link>
                    </span>
                  ))}
                </li>
              ))}
              {r.changedTotal > r.changed.length ? (
                <li className="text-muted-foreground">… and {r.changedTotal - r.changed.length} more tests</li>
              ) : null}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
