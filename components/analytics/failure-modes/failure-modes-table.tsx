import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { formatCount } from "@/lib/format";
import type { FailureMode } from "@/lib/services/failure-modes";
import type { FailureModeFilter } from "@/lib/validation/failure-modes-params";
import { day, modeQueueHref, modeTableHref, pct, stepHref } from "./links";
import { SuggestModeButton } from "./suggest-mode-button";

/** Modes ranked by trajectories affected; each links to its trajectories and to example steps in the replay. */
export function FailureModesTable({ modes, filter }: { modes: FailureMode[]; filter: FailureModeFilter }) {
  return (
    <Table data-testid="failure-modes-table">
      <TableHeader>
        <TableRow>
          <TableHead className="min-w-[16rem]">Failure mode</TableHead>
          <TableHead className="text-right">Trajectories</TableHead>
          <TableHead className="text-right" title="Share of the failed trajectories in scope that fail at this mode">
            Share
          </TableHead>
          <TableHead className="text-right">Steps</TableHead>
          <TableHead>Category</TableHead>
          <TableHead>Runs · checkpoints</TableHead>
          <TableHead>Seen</TableHead>
          <TableHead className="text-right">Recovery</TableHead>
          <TableHead>Examples</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {modes.map((m) => (
          <TableRow key={m.id} data-testid="failure-mode-row">
            <TableCell className="max-w-[28rem] whitespace-normal">
              <Link
                href={modeTableHref(m.id, filter)}
                className="font-mono text-xs break-words hover:underline"
                title="Open these trajectories in the table"
              >
                {m.signature}
              </Link>
              {m.values.length ? (
                <div className="mt-1 flex flex-wrap gap-1">
                  {m.values.slice(0, 3).map((v) => (
                    <Badge key={v.value} variant="outline" className="max-w-[11rem] font-mono" title={`${v.value}: ${v.count}`}>
                      <span className="truncate">{v.value.length > 28 ? `…${v.value.slice(-27)}` : v.value}</span>{" "}
                      <span className="tabular-nums">{formatCount(v.count)}</span>
                    </Badge>
                  ))}
                </div>
              ) : null}
            </TableCell>
            <TableCell className="text-right tabular-nums">
              <Link href={modeTableHref(m.id, filter)} className="hover:underline">
                {formatCount(m.trajectories)}
              </Link>
            </TableCell>
            <TableCell className="text-right tabular-nums" title={`${m.failedTrajectories} failed trajectories at this mode`}>
              {pct(m.shareOfFailures)}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(m.steps)}</TableCell>
            <TableCell>
              {m.labelledSteps ? (
                <Badge
                  title={`From labels on ${m.labelledSteps} of its steps; suggested from the signature: ${errorCategoryLabel(m.suggestedCategory)}`}
                >
                  {errorCategoryLabel(m.category)}
                </Badge>
              ) : (
                <Badge variant="outline" title="Suggested from the signature; a label overrides it">
                  {errorCategoryLabel(m.category)}
                </Badge>
              )}
            </TableCell>
            <TableCell
              className="max-w-[12rem] whitespace-normal text-xs"
              title={m.runs.map((r) => `${r.name}: ${r.trajectories}`).join("\n")}
            >
              <div className="truncate">
                {m.runs[0]?.name}
                {m.runs.length > 1 ? ` +${m.runs.length - 1} runs` : ""}
              </div>
              {m.checkpoints.length ? (
                <div className="truncate text-muted-foreground">
                  ckpt {m.checkpoints.slice(0, 3).join(", ")}
                  {m.checkpoints.length > 3 ? "…" : ""}
                </div>
              ) : null}
            </TableCell>
            <TableCell className="text-xs tabular-nums">
              {day(m.firstSeen) === day(m.lastSeen) ? day(m.firstSeen) : `${day(m.firstSeen)} – ${day(m.lastSeen)}`}
            </TableCell>
            <TableCell
              className="text-right tabular-nums"
              title={`${m.recovery.recoveredForkPoints} of ${m.recovery.evaluatedForkPoints} fork points recovered (${m.recovery.successfulAttempts} of ${m.recovery.attempts} attempts passed)`}
            >
              {m.recovery.evaluatedForkPoints ? (
                <>
                  {pct(m.recovery.recoveryRate, 0)}{" "}
                  <span className="text-xs text-muted-foreground">of {m.recovery.evaluatedForkPoints}</span>
                </>
              ) : (
                <span className="text-muted-foreground">—</span>
              )}
            </TableCell>
            <TableCell className="text-xs whitespace-nowrap">
              <div className="flex flex-col">
                {m.examples.map((e, i) => (
                  <Link
                    key={`${e.trajectoryId}:${e.stepIndex}`}
                    href={stepHref(e.trajectoryId, e.stepIndex)}
                    className="text-primary hover:underline"
                    aria-label={`Example ${i + 1}: step ${e.stepIndex + 1} of trajectory ${e.trajectoryId}`}
                  >
                    #{i + 1} step {e.stepIndex + 1}
                  </Link>
                ))}
              </div>
              <Link
                href={modeQueueHref(m.id, filter)}
                className="text-muted-foreground hover:text-foreground hover:underline"
                title="Create an annotation queue with this mode's trajectories"
              >
                Queue for labelling
              </Link>
              <SuggestModeButton modeId={m.id} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
