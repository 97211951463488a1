"use client";
// The option rows of the schema editor: value, label, parent (hierarchy), hotkey, description, retired. An option
// that labels may already use is retired rather than removed (the server keeps a removed one as retired anyway).
import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import type { LabelOptionDef } from "@/lib/domain/annotation/label-schema";
import { Button } from "@/components/ui/button";
import { Input, NativeSelect } from "@/components/ui/input";
import { cn } from "@/lib/utils";

export type OptionRow = LabelOptionDef & { rowId: number };

export function OptionRows({
  rows,
  onChange,
  errors,
  hierarchy,
  nextRowId,
}: {
  rows: OptionRow[];
  onChange: (rows: OptionRow[]) => void;
  errors: Record<string, string>;
  hierarchy: boolean;
  nextRowId: () => number;
}) {
  const set = (i: number, patch: Partial<LabelOptionDef>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, d: number) => {
    const j = i + d;
    if (j < 0 || j >= rows.length) return;
    const next = [...rows];
    [next[i], next[j]] = [next[j]!, next[i]!];
    onChange(next);
  };
  const err = (i: number, f: string) => errors[`options.${i}.${f}`];
  return (
    <div className="flex flex-col gap-2" data-testid="option-rows">
      <div className="hidden grid-cols-[7rem_9rem_7rem_4rem_1fr_auto_auto] gap-2 px-1 text-xs font-medium text-muted-foreground md:grid">
        <span>Value (stored)</span>
        <span>Label</span>
        <span>{hierarchy ? "Parent" : ""}</span>
        <span>Hotkey</span>
        <span>Description (shown while labelling)</span>
        <span>Retired</span>
        <span />
      </div>
      {rows.map((o, i) => (
        <div
          key={o.rowId}
          className={cn(
            "grid grid-cols-2 items-start gap-2 rounded-md border p-2 md:grid-cols-[7rem_9rem_7rem_4rem_1fr_auto_auto] md:border-0 md:p-0",
            o.retired && "opacity-60",
          )}
          data-testid="option-row"
        >
          <Field error={err(i, "value")}>
            <Input
              aria-label={`Option ${i + 1} value`}
              value={o.value}
              onChange={(e) => set(i, { value: e.target.value })}
              className="h-8 font-mono text-xs"
            />
          </Field>
          <Field error={err(i, "label")}>
            <Input
              aria-label={`Option ${i + 1} label`}
              value={o.label}
              onChange={(e) => set(i, { label: e.target.value })}
              className="h-8 text-xs"
            />
          </Field>
          <Field error={err(i, "parent")}>
            {hierarchy ? (
              <NativeSelect
                aria-label={`Option ${i + 1} parent`}
                value={o.parent ?? ""}
                onChange={(e) => set(i, { parent: e.target.value || undefined })}
                className="h-8 w-full text-xs"
              >
                <option value="">(top level)</option>
                {rows
                  .filter((p) => p.rowId !== o.rowId && p.value)
                  .map((p) => (
                    <option key={p.rowId} value={p.value}>
                      {p.label || p.value}
                    </option>
                  ))}
              </NativeSelect>
            ) : (
              <span />
            )}
          </Field>
          <Field error={err(i, "hotkey")}>
            <Input
              aria-label={`Option ${i + 1} hotkey`}
              value={o.hotkey ?? ""}
              maxLength={1}
              onChange={(e) => set(i, { hotkey: e.target.value.toLowerCase() || undefined })}
              className="h-8 w-14 text-center font-mono text-xs"
            />
          </Field>
          <Field error={err(i, "description")}>
            <Input
              aria-label={`Option ${i + 1} description`}
              value={o.description ?? ""}
              onChange={(e) => set(i, { description: e.target.value || undefined })}
              className="h-8 text-xs"
            />
          </Field>
          <label className="flex h-8 items-center gap-1 text-xs">
            <input
              type="checkbox"
              aria-label={`Option ${i + 1} retired`}
              checked={!!o.retired}
              onChange={(e) => set(i, { retired: e.target.checked || undefined, hotkey: e.target.checked ? undefined : o.hotkey })}
            />
            <span className="md:sr-only">Retired</span>
          </label>
          <div className="flex h-8 items-center gap-0.5">
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Move option ${i + 1} up`}
              onClick={() => move(i, -1)}
              disabled={i === 0}
            >
              <ArrowUp />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Move option ${i + 1} down`}
              onClick={() => move(i, 1)}
              disabled={i === rows.length - 1}
            >
              <ArrowDown />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Remove option ${i + 1}`}
              title="Remove (kept as retired if it was saved before)"
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              <X />
            </Button>
          </div>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() => onChange([...rows, { rowId: nextRowId(), value: "", label: "" }])}
      >
        <Plus /> Add option
      </Button>
    </div>
  );
}

function Field({ error, children }: { error?: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      {children}
      {error ? (
        <span role="alert" className="text-[11px] text-destructive">
          {error}
        </span>
      ) : null}
    </div>
  );
}
