// The schema's values as radio buttons with their hotkeys, and the chosen (or current) value's description, readable
// while labelling without hovering.
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { cn } from "@/lib/utils";

export function optionLabel(options: { value: string; label: string }[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}

export function ValuePicker({
  schema,
  pending,
  current,
  onPick,
}: {
  schema: LabelSchemaView;
  pending: string | null;
  current: string | undefined;
  onPick(value: string): void;
}) {
  const shown = pending ?? current ?? null;
  const described = shown === null ? undefined : schema.options.find((o) => o.value === shown);
  return (
    <>
      <div className="flex flex-wrap gap-1.5" role="radiogroup" aria-label={schema.name}>
        {schema.options
          .filter((o) => !o.retired)
          .map((o) => (
            <button
              key={o.value}
              type="button"
              role="radio"
              aria-checked={pending === o.value}
              title={o.description}
              onClick={() => onPick(o.value)}
              className={cn(
                "inline-flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs",
                pending === o.value
                  ? "border-primary bg-primary/15 text-foreground"
                  : current === o.value
                    ? "border-primary/50"
                    : "hover:bg-accent",
              )}
            >
              {o.hotkey ? <kbd className="rounded border bg-muted px-1 font-mono text-[10px]">{o.hotkey}</kbd> : null}
              {o.parent ? <span className="text-muted-foreground">{optionLabel(schema.options, o.parent)} ›</span> : null}
              {o.label}
            </button>
          ))}
      </div>
      {described?.description ? (
        <p className="rounded-md bg-muted/50 px-2 py-1 text-xs" data-testid="option-description">
          <span className="font-medium">{described.label}:</span> <span className="text-muted-foreground">{described.description}</span>
        </p>
      ) : null}
    </>
  );
}
