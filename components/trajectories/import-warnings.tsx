import { TriangleAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { TrajectoryDetail } from "@/lib/services/browse/view-trajectory";

/** A partial import must never look whole: the table and the page both flag it. */
export function ImportWarningsBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <Badge
      variant="warning"
      data-testid="import-warnings-badge"
      title={`${count} import warning${count === 1 ? "" : "s"}: part of the source could not be read`}
    >
      <TriangleAlert className="size-3" aria-hidden /> {count === 1 ? "1 warning" : `${count} warnings`}
    </Badge>
  );
}

/** What could not be read of the source: file, line and field of each problem, as plain text (it is untrusted). */
export function ImportWarningsPanel({ t }: { t: Pick<TrajectoryDetail, "importWarnings" | "warningCount"> }) {
  if (!t.warningCount) return null;
  const hidden = t.warningCount - t.importWarnings.length;
  return (
    <section
      aria-label="Import warnings"
      className="rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="import-warnings"
    >
      <h2 className="flex items-center gap-2 font-medium">
        <TriangleAlert className="size-4" aria-hidden /> Imported with {t.warningCount === 1 ? "1 warning" : `${t.warningCount} warnings`}:
        part of its source could not be read
      </h2>
      <ul className="mt-2 flex max-h-48 flex-col gap-1 overflow-auto font-mono text-xs">
        {t.importWarnings.map((w, i) => (
          <li key={i} className="break-all">
            {w.file}
            {w.line !== undefined ? `:${w.line}` : ""}: {w.path ? `${w.path}: ` : ""}
            {w.message}
          </li>
        ))}
        {hidden > 0 ? <li className="text-muted-foreground">… and {hidden} more</li> : null}
      </ul>
    </section>
  );
}
