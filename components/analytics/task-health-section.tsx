import Link from "next/link";
import type { TaskFlag, TaskHealthReport } from "@/lib/services/analytics/get-task-health";
import { taskRolloutsHref, type DrillScope } from "@/lib/validation/analytics-drill-down";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

const FLAG_LABEL: Record<TaskFlag, string> = {
  "never-passed": "Never passed",
  "always-passed": "Always passed",
  "persistent-failure": "Persistent failure",
  "labelled-invalid": "Labelled invalid / brittle",
  "reward-anomaly": "Reward ≠ verifier",
};

/** Tasks to check before training on them, each linked to its rollouts. */
export function TaskHealthSection({ report, scope }: { report: TaskHealthReport; scope: DrillScope }) {
  return (
    <Card data-testid="task-health-card">
      <CardHeader>
        <CardTitle>Task health</CardTitle>
        <p className="text-xs text-muted-foreground">
          {Object.entries(report.counts)
            .map(([f, n]) => `${FLAG_LABEL[f as TaskFlag]}: ${n}`)
            .join(" · ")}
          . Persistent failure = every rollout failed at two consecutive checkpoints of one model · method; reward ≠ verifier = a passed
          rollout with reward ≤ 0 or a failed one with reward ≥ 1.
        </p>
      </CardHeader>
      <CardContent>
        {report.tasks.length ? (
          <div className="max-h-96 overflow-y-auto">
            <Table aria-label="Task health">
              <TableHeader>
                <TableRow>
                  <TableHead>Task</TableHead>
                  <TableHead>Flags</TableHead>
                  <TableHead className="text-right">Runs</TableHead>
                  <TableHead className="text-right">Passed / rollouts</TableHead>
                  <TableHead className="text-right">Reward anomalies</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.tasks.map((t) => (
                  <TableRow key={t.taskId} data-testid="task-health-row">
                    <TableCell>
                      <Link className="text-primary hover:underline" href={`/tasks/${encodeURIComponent(t.taskId)}`}>
                        {t.name}
                      </Link>
                      {t.category ? <span className="ml-1 text-xs text-muted-foreground">{t.category}</span> : null}
                    </TableCell>
                    <TableCell className="whitespace-normal">
                      <div className="flex flex-wrap gap-1">
                        {t.flags.map((f) => (
                          <Badge
                            key={f}
                            variant={
                              f === "always-passed"
                                ? "default"
                                : f === "never-passed" || f === "labelled-invalid"
                                  ? "destructive"
                                  : "warning"
                            }
                            title={f === "persistent-failure" ? t.persistentIn.join(", ") : undefined}
                          >
                            {FLAG_LABEL[f]}
                          </Badge>
                        ))}
                      </div>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{t.runs}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      <Link className="hover:underline" href={taskRolloutsHref(scope, t.taskId)}>
                        {t.passed} / {t.rollouts}
                      </Link>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{t.rewardAnomalies || "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No task is flagged.</p>
        )}
      </CardContent>
    </Card>
  );
}
