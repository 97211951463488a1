// The "?" overlay: every labelling key, and the current schema's hotkeys with their descriptions.
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";

const KEYS: [string, string][] = [
  ["j / k", "next / previous step (cursor; the focused suggestion follows it)"],
  ["[ / ]", "range starts / ends at the cursor"],
  ["s", "next schema"],
  ["Enter", "save the label (in a queue: then finish the item and open the next)"],
  ["u", "undo your last save"],
  ["a", "accept the focused suggestion as your label"],
  ["c", "change the focused suggestion: pick a value, then Enter"],
  ["x", "reject the focused suggestion"],
  ["Esc", "clear the chosen value"],
  ["?", "show or hide this list"],
];

export function ShortcutHelp({ schema }: { schema: LabelSchemaView | undefined }) {
  return (
    <div className="grid gap-3 rounded-md border bg-muted/40 p-3 text-xs sm:grid-cols-2" role="region" aria-label="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {KEYS.map(([k, d]) => (
          <div key={k} className="contents">
            <dt>
              <kbd className="rounded border bg-background px-1 font-mono">{k}</kbd>
            </dt>
            <dd className="text-muted-foreground">{d}</dd>
          </div>
        ))}
      </dl>
      {schema ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {schema.options
            .filter((o) => !o.retired && o.hotkey)
            .map((o) => (
              <div key={o.value} className="contents">
                <dt>
                  <kbd className="rounded border bg-background px-1 font-mono">{o.hotkey}</kbd>
                </dt>
                <dd>
                  <span className="font-medium">{o.label}</span>
                  {o.description ? <span className="text-muted-foreground"> — {o.description}</span> : null}
                </dd>
              </div>
            ))}
        </dl>
      ) : null}
    </div>
  );
}
