// Pending suggestions (the detector's findings, imported judges' output) at their step location, with category and
// message. They are not labels: accepting (a) or changing (c) one makes it a label, rejecting (x) only records that.
// The focused one follows the step cursor (j/k), so the existing keyboard flow moves between them.
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { describeTarget } from "@/lib/domain/annotation/targets";
import type { SuggestionView } from "@/lib/services/annotation/suggestions/list-suggestions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export function suggestionValueLabel(schemas: LabelSchemaView[], s: Pick<SuggestionView, "schemaId" | "value">): string {
  return schemas.find((x) => x.id === s.schemaId)?.options.find((o) => o.value === s.value)?.label ?? s.value;
}

/** The suggestion the keys act on: the first at or after the step cursor, else the last one. */
export function focusedSuggestion(list: readonly SuggestionView[], cursor: number): SuggestionView | undefined {
  return list.find((s) => (s.stepStart ?? 0) >= cursor) ?? list.at(-1);
}

export function SuggestionList({ suggestions, schemas, focusedKey, changingKey, busy, onFocus, onDecide }: {
  suggestions: SuggestionView[];
  schemas: LabelSchemaView[];
  focusedKey: string | undefined;
  changingKey: string | null;
  busy: boolean;
  onFocus(s: SuggestionView): void;
  onDecide(s: SuggestionView, decision: "accepted" | "changed" | "rejected"): void;
}) {
  if (!suggestions.length) return null;
  return (
    <section aria-label="Suggestions" className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        Suggestions — not labels until you accept them ({suggestions.length})
      </h3>
      <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto text-sm" data-testid="suggestion-list">
        {suggestions.map((s) => {
          const focused = s.key === focusedKey;
          return (
            <li
              key={s.key}
              data-testid="suggestion"
              data-step={s.stepStart ?? ""}
              aria-current={focused ? "true" : undefined}
              onClick={() => onFocus(s)}
              className={cn("flex flex-wrap items-center gap-2 rounded-md border border-dashed px-2 py-1", focused ? "border-primary bg-primary/10" : "border-border")}
            >
              <span className="min-w-20 text-xs text-muted-foreground">{describeTarget(s)}</span>
              <Badge variant="outline" data-testid="suggestion-value">{suggestionValueLabel(schemas, s)}</Badge>
              <span className="text-xs text-muted-foreground">{s.source === "detector" ? "detector" : s.source.replace(/^imported:/, "")}</span>
              {s.message ? <span className="max-w-md truncate font-mono text-xs text-muted-foreground" title={s.message}>{s.message}</span> : null}
              <span className="ml-auto flex gap-1">
                <Button size="sm" variant="outline" disabled={busy} onClick={(e) => (e.stopPropagation(), onDecide(s, "accepted"))} aria-label={`Accept ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}>
                  Accept{focused ? <kbd className="font-mono text-[10px] opacity-70">a</kbd> : null}
                </Button>
                <Button size="sm" variant={changingKey === s.key ? "secondary" : "outline"} disabled={busy} onClick={(e) => (e.stopPropagation(), onDecide(s, "changed"))} aria-label={`Change ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}>
                  Change{focused ? <kbd className="font-mono text-[10px] opacity-70">c</kbd> : null}
                </Button>
                <Button size="sm" variant="ghost" disabled={busy} onClick={(e) => (e.stopPropagation(), onDecide(s, "rejected"))} aria-label={`Reject ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}>
                  Reject{focused ? <kbd className="font-mono text-[10px] opacity-70">x</kbd> : null}
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
