// Labels on this trajectory (as the viewer may see them) and the history of changes: who, when, old → new.
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { describeTarget } from "@/lib/domain/annotation/targets";
import type { LabelEventView, LabelView } from "@/lib/services/annotation/list-labels";
import { formatDateTime } from "@/lib/format";
import { Badge } from "@/components/ui/badge";

function valueText(schemas: LabelSchemaView[], schemaId: string, value: string | null): string {
  if (value === null) return "—";
  const s = schemas.find((x) => x.id === schemaId);
  const o = s?.options.find((x) => x.value === value);
  if (!o && value.startsWith("[")) return `ranking of ${value.split(",").length} attempts`; // edited in the compare view
  return o ? `${o.label}${o.retired ? " (retired)" : ""}` : value;
}

export function LabelList({ labels, schemas, history }: { labels: LabelView[]; schemas: LabelSchemaView[]; history: LabelEventView[] }) {
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">On this trajectory</h3>
        {labels.length === 0 ? (
          <p className="text-sm text-muted-foreground">No labels yet.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm" data-testid="label-list">
            {[...labels]
              .sort((a, b) => (a.stepStart ?? -1) - (b.stepStart ?? -1))
              .map((l) => (
                <li key={l.id} className="flex flex-wrap items-center gap-2">
                  <Badge variant="primary">{valueText(schemas, l.schemaId, l.value)}</Badge>
                  <span className="text-muted-foreground">
                    {describeTarget(l)} · {l.schemaKey} · {l.annotatorName} · v{l.version}
                  </span>
                  {l.comment ? <span className="w-full pl-1 text-xs text-muted-foreground">“{l.comment}”</span> : null}
                </li>
              ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">History</h3>
        {history.length === 0 ? (
          <p className="text-sm text-muted-foreground">No changes yet.</p>
        ) : (
          <ul className="flex max-h-48 flex-col gap-1 overflow-auto text-xs text-muted-foreground">
            {history.map((e) => (
              <li key={e.id}>
                {formatDateTime(e.createdAt)} · <span className="text-foreground">{e.actorName}</span>{" "}
                {e.action === "create" ? "labelled" : e.action === "delete" ? "removed" : "changed"}{" "}
                {e.action === "update"
                  ? `${valueText(schemas, e.schemaId, e.oldValue)} → ${valueText(schemas, e.schemaId, e.newValue)}`
                  : valueText(schemas, e.schemaId, e.newValue ?? e.oldValue)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
