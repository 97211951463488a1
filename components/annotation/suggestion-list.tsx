// Pending suggestions (the detector's findings, imported judges' output) at their step location, with category and
// message. They are not labels: accepting (a) or changing (c) one makes it a label, rejecting (x) only records that.
// The focused one follows the step cursor (j/k), so the existing keyboard flow moves between them.
import { useEffect, useRef } from "react";
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

export function SuggestionList({
  suggestions,
  total,
  more,
  onMore,
  schemas,
  focusedKey,
  changingKey,
  busy,
  onFocus,
  onDecide,
}: {
  suggestions: SuggestionView[];
  /** Undecided in all; `more`: some are not loaded yet (`onMore` fetches the next range). */
  total: number;
  more: boolean;
  onMore(): void;
  schemas: LabelSchemaView[];
  focusedKey: string | undefined;
  changingKey: string | null;
  busy: boolean;
  onFocus(s: SuggestionView): void;
  onDecide(s: SuggestionView, decision: "accepted" | "changed" | "rejected"): void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  // The next range is fetched when the end of the list scrolls into view.
  useEffect(() => {
    const root = list.current;
    const target = end.current;
    if (!more || !root || !target || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onMore(), {
      root,
      rootMargin: "0px 0px 200px 0px",
    });
    io.observe(target);
    return () => io.disconnect();
  }, [more, onMore, suggestions.length]);
  if (!suggestions.length && !more) return null;
  return (
    <section aria-label="Suggestions" className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        Suggestions — not labels until you accept them ({total})
      </h3>
      <ul ref={list} className="flex max-h-64 flex-col gap-1 overflow-y-auto text-sm" data-testid="suggestion-list">
        {suggestions.map((s) => {
          const focused = s.key === focusedKey;
          return (
            <li
              key={s.key}
              data-testid="suggestion"
              data-step={s.stepStart ?? ""}
              aria-current={focused ? "true" : undefined}
              onClick={() => onFocus(s)}
              className={cn(
                "flex flex-wrap items-center gap-2 rounded-md border border-dashed px-2 py-1",
                focused ? "border-primary bg-primary/10" : "border-border",
              )}
            >
              <span className="min-w-20 text-xs text-muted-foreground">{describeTarget(s)}</span>
              <Badge variant="outline" data-testid="suggestion-value">
                {suggestionValueLabel(schemas, s)}
              </Badge>
              <span className="text-xs text-muted-foreground">
                {s.source === "detector" ? "detector" : s.source.replace(/^imported:/, "")}
              </span>
              {s.message ? (
                <span className="max-w-md truncate font-mono text-xs text-muted-foreground" title={s.message}>
                  {s.message}
                </span>
              ) : null}
              <span className="ml-auto flex gap-1">
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  onClick={(e) => (e.stopPropagation(), onDecide(s, "accepted"))}
                  aria-label={`Accept ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}
                >
                  Accept{focused ? <kbd className="font-mono text-[10px] opacity-70">a</kbd> : null}
                </Button>
                <Button
                  size="sm"
                  variant={changingKey === s.key ? "secondary" : "outline"}
                  disabled={busy}
                  onClick={(e) => (e.stopPropagation(), onDecide(s, "changed"))}
                  aria-label={`Change ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}
                >
                  Change{focused ? <kbd className="font-mono text-[10px] opacity-70">c</kbd> : null}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  onClick={(e) => (e.stopPropagation(), onDecide(s, "rejected"))}
                  aria-label={`Reject ${suggestionValueLabel(schemas, s)} on ${describeTarget(s)}`}
                >
                  Reject{focused ? <kbd className="font-mono text-[10px] opacity-70">x</kbd> : null}
                </Button>
              </span>
            </li>
          );
        })}
        {more ? (
          <li ref={end} className="flex items-center gap-2 px-2 py-1 text-xs text-muted-foreground">
            {suggestions.length} of {total} loaded
            <Button size="sm" variant="ghost" onClick={onMore} data-testid="suggestions-more">
              Load more
            </Button>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
