"use client";
// The schema editor: name, key, kind, targets, description and option rows, checked as you type with the same zod
// schema the server uses (so a duplicate or reserved hotkey is named before saving). Saving names the version the
// editor read; if someone saved in between, the server answers 409 and the editor says so.
import { useActionState, useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import {
  labelSchemaInputSchema,
  SCHEMA_KINDS,
  TARGET_TYPES,
  type LabelSchemaView,
  type SchemaKind,
  type TargetType,
} from "@/lib/domain/annotation/label-schema";
import { saveSchemaAction } from "@/lib/actions/label-schemas";
import { Button } from "@/components/ui/button";
import { FieldLabel, Input, NativeSelect } from "@/components/ui/input";
import { OptionRows, type OptionRow } from "./option-rows";

const KIND_HELP: Record<SchemaKind, string> = {
  categorical: "pick one option; options may have a parent (hierarchy)",
  ordinal: "pick one step of a scale; the option order is the scale order (agreement uses it)",
  boolean: "yes or no (options optional: their labels and hotkeys)",
  text: "free text",
  ranking: "order the attempts of a fork point best → worst (compare view)",
};

type Draft = {
  key: string;
  name: string;
  description: string;
  kind: SchemaKind;
  targets: TargetType[];
  active: boolean;
  options: OptionRow[];
};

export function SchemaForm({ schema }: { schema: LabelSchemaView | null }) {
  const router = useRouter();
  const ids = useRef(0);
  const nextRowId = () => ++ids.current;
  const [draft, setDraft] = useState<Draft>(() => ({
    key: schema?.key ?? "",
    name: schema?.name ?? "",
    description: schema?.description ?? "",
    kind: schema?.kind ?? "categorical",
    targets: schema?.targets ?? ["trajectory"],
    active: schema?.active ?? true,
    options: (schema?.options ?? []).map((o, i) => ({ ...o, rowId: -(i + 1) })),
  }));
  const [state, action, pending] = useActionState(saveSchemaAction, null);

  const payload = useMemo(
    () => ({ ...draft, description: draft.description || null, options: draft.options.map(({ rowId: _r, ...o }) => o) }),
    [draft],
  );
  const check = labelSchemaInputSchema.safeParse(payload);
  const errors: Record<string, string> = check.success
    ? {}
    : Object.fromEntries(check.error.issues.map((i) => [i.path.join("."), i.message]));
  const serverFieldErrors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const allErrors = { ...serverFieldErrors, ...errors };

  useEffect(() => {
    if (state?.ok) {
      router.replace(`/annotation/schemas/${encodeURIComponent(state.data.key)}?saved=1`);
      router.refresh();
    }
  }, [state, router]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const toggleTarget = (t: TargetType, on: boolean) =>
    set({ targets: on ? [...draft.targets, t].filter((x, i, a) => a.indexOf(x) === i) : draft.targets.filter((x) => x !== t) });
  const hasOptions = draft.kind === "categorical" || draft.kind === "ordinal" || draft.kind === "boolean";

  return (
    <form action={action} className="flex flex-col gap-4" aria-label="Schema editor">
      <input type="hidden" name="schema" value={JSON.stringify(payload)} />
      <input type="hidden" name="expectedUpdatedAt" value={schema?.updatedAt ?? ""} />
      <div className="grid gap-3 sm:grid-cols-3">
        <FieldLabel>
          Name
          <Input value={draft.name} onChange={(e) => set({ name: e.target.value })} aria-invalid={!!allErrors.name} />
          <Err msg={allErrors.name} />
        </FieldLabel>
        <FieldLabel>
          Key (stable id; cannot change)
          <Input
            value={draft.key}
            readOnly={!!schema}
            onChange={(e) => set({ key: e.target.value })}
            className="font-mono"
            aria-invalid={!!allErrors.key}
          />
          <Err msg={allErrors.key} />
        </FieldLabel>
        <FieldLabel>
          Kind{schema ? " (cannot change: labels would no longer read)" : ""}
          <NativeSelect
            value={draft.kind}
            disabled={!!schema}
            onChange={(e) =>
              set({ kind: e.target.value as SchemaKind, targets: e.target.value === "ranking" ? ["fork_point"] : draft.targets })
            }
          >
            {SCHEMA_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </NativeSelect>
          <span className="font-normal">{KIND_HELP[draft.kind]}</span>
        </FieldLabel>
      </div>
      <fieldset className="flex flex-wrap items-center gap-3 text-sm">
        <legend className="mb-1 text-xs font-medium text-muted-foreground">Targets (what a label of this schema is about)</legend>
        {TARGET_TYPES.map((t) => (
          <label key={t} className="flex items-center gap-1.5">
            <input type="checkbox" checked={draft.targets.includes(t)} onChange={(e) => toggleTarget(t, e.target.checked)} />{" "}
            {t.replace("_", " ")}
          </label>
        ))}
        <label className="ml-auto flex items-center gap-1.5">
          <input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} /> Active (offered to
          annotators)
        </label>
        <Err msg={allErrors.targets} />
      </fieldset>
      <FieldLabel>
        Description (annotators read it while labelling)
        <textarea
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
          rows={2}
          className="rounded-md border bg-background px-3 py-1.5 text-sm text-foreground"
        />
      </FieldLabel>
      {hasOptions ? (
        <section className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Options</h2>
          <p className="text-xs text-muted-foreground">
            Hotkeys: one digit or lower-case letter, unique in this schema; j, k, u and s are taken by the labelling panel. Removing an
            option that was saved before keeps it as retired: existing labels stay readable.
          </p>
          <OptionRows
            rows={draft.options}
            onChange={(options) => set({ options })}
            errors={allErrors}
            hierarchy={draft.kind === "categorical"}
            nextRowId={nextRowId}
          />
          <Err msg={allErrors.options} />
        </section>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending || !check.success}>
          {schema ? "Save changes" : "Create schema"}
        </Button>
        {!check.success ? (
          <p className="text-xs text-destructive" data-testid="schema-problems">
            {check.error.issues.length} problem{check.error.issues.length === 1 ? "" : "s"} to fix before saving
          </p>
        ) : null}
        {state && !state.ok ? (
          <p role="alert" className="text-sm text-destructive">
            {state.error}
          </p>
        ) : null}
      </div>
    </form>
  );
}

function Err({ msg }: { msg?: string }) {
  return msg ? (
    <span role="alert" className="text-[11px] font-normal text-destructive">
      {msg}
    </span>
  ) : null;
}
