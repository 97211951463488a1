"use client";
// Labelling next to the replay: pick a target (step range, fork point, the whole trajectory or attempt), a value
// from the schema (hotkeys), an optional rationale, and submit. Keyboard-first (see the ? overlay); in a queue,
// Enter after the last schema finishes the item and opens the next one. Pending suggestions are listed above the
// labels: a accepts the focused one, c changes it (pick a category, Enter), x rejects it.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Keyboard } from "lucide-react";
import type { LabellingView } from "@/lib/services/annotation/labelling-view";
import { resolveTarget, describeTarget, type TargetInput } from "@/lib/domain/annotation/targets";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { completeItemAction, skipItemAction } from "@/lib/actions/annotation";
import { labelApi, suggestionApi, type LabelView, type SuggestionView } from "./label-api";
import { focusedSuggestion, SuggestionList, suggestionValueLabel } from "./suggestion-list";
import { useLabelKeys } from "./use-label-keys";
import { LabelList } from "./label-list";
import { publishStepLabels, stepLabelsOf } from "./step-labels";
import { ShortcutHelp } from "./shortcut-help";
import { cn } from "@/lib/utils";

type Mode = "range" | "fork" | "whole";
type Undo = { kind: "created"; label: LabelView } | { kind: "updated"; label: LabelView; previous: { value: string; comment: string | null } };

export function LabelPanel({ trajectoryId, stepCount, forkSteps, view }: { trajectoryId: string; stepCount: number; forkSteps: number[]; view: LabellingView }) {
  const router = useRouter();
  const [labels, setLabels] = useState<LabelView[]>(view.labels);
  // issue 9: the replay's timeline and step list mark step-range labels as soon as they change here
  useEffect(() => publishStepLabels(trajectoryId, stepLabelsOf(labels)), [labels, trajectoryId]);
  const [schemaIdx, setSchemaIdx] = useState(0);
  const [cursor, setCursor] = useState(0);
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const [mode, setMode] = useState<Mode | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const [undoStack, setUndoStack] = useState<Undo[]>([]);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [help, setHelp] = useState(false);
  const [keys, setKeys] = useState(view.queue !== null);
  // The first page came with the HTML; the rest arrives in ranges (scrolling the list, or the step cursor passing
  // the last one loaded), so a long trajectory's hundreds of suggestions are not all in the page.
  const [suggestions, setSuggestions] = useState<SuggestionView[]>(view.suggestions);
  const [suggestionsMore, setSuggestionsMore] = useState(view.suggestionsMore);
  const [suggestionTotal, setSuggestionTotal] = useState(view.suggestionTotal);
  const loadingSuggestions = useRef(false);
  const [changing, setChanging] = useState<SuggestionView | null>(null);
  // A suggestion clicked in the list; otherwise the focus follows the step cursor.
  const [pickedSuggestion, setPickedSuggestion] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const schema = view.schemas[schemaIdx];
  // True once hydrated (keys work from then on); tests and the "keys on" badge rely on it.
  const hydrated = useSyncExternalStore(noopSubscribe, () => true, () => false);

  // The chosen target when the schema allows it; otherwise steps for step-level schemas, else the whole trajectory/attempt.
  const effectiveMode: Mode = useMemo(() => {
    if (!schema) return "whole";
    if (mode === "range" && schema.targets.includes("step_range")) return "range";
    if (mode === "fork" && schema.targets.includes("fork_point")) return "fork";
    if (mode === "whole" && (schema.targets.includes("trajectory") || (view.isAttempt && schema.targets.includes("attempt")))) return "whole";
    return schema.targets.includes("step_range") && !(view.isAttempt && schema.targets.includes("attempt")) ? "range" : "whole";
  }, [mode, schema, view.isAttempt]);

  const targetInput: TargetInput | undefined = effectiveMode === "range" ? { steps: range } : effectiveMode === "fork" ? { forkStep: cursor } : undefined;
  const target = schema ? resolveTarget(targetInput, { trajectoryId, stepCount, isAttempt: view.isAttempt }, schema.targets) : null;
  const mine = (schemaId: string, key: string) => labels.find((l) => l.annotatorId === view.actorId && l.schemaId === schemaId && l.targetKey === key);
  const current = schema && target?.ok ? mine(schema.id, target.target.key) : undefined;

  const refresh = async () => setLabels((await labelApi.list(trajectoryId)).labels);
  // Past the last loaded suggestion while more exist, the focused one is not known yet: none until the next page is in.
  const lastLoadedStep = suggestions.at(-1)?.stepStart ?? -1;
  const cursorCovered = !suggestionsMore || (suggestions.length > 0 && lastLoadedStep >= cursor);
  const focused = suggestions.find((x) => x.key === pickedSuggestion) ?? (cursorCovered ? focusedSuggestion(suggestions, cursor) : undefined);
  /** Fetch the next range, or ranges until one reaches step `upTo` (the cursor moved past the last one loaded). */
  const loadMoreSuggestions = useCallback(async (upTo = -1) => {
    if (loadingSuggestions.current || !suggestionsMore) return;
    loadingSuggestions.current = true;
    try {
      let after = suggestions.at(-1)?.key;
      for (;;) {
        const r = await suggestionApi.page(trajectoryId, after, SUGGESTION_PAGE);
        setSuggestions((list) => {
          const have = new Set(list.map((x) => x.key));
          return [...list, ...r.suggestions.filter((x) => !have.has(x.key))];
        });
        setSuggestionsMore(r.more);
        setSuggestionTotal(r.total);
        const last = r.suggestions.at(-1);
        if (!r.more || !last || (last.stepStart ?? -1) >= upTo) break;
        after = last.key;
      }
    } catch (e) {
      setMessage({ text: `Loading more suggestions: ${(e as Error).message}`, error: true });
    } finally {
      loadingSuggestions.current = false;
    }
  }, [suggestions, suggestionsMore, trajectoryId]);
  const coverCursor = (c: number) => {
    if (suggestionsMore && (suggestions.length === 0 || lastLoadedStep < c)) void loadMoreSuggestions(c);
  };
  const say = (text: string, error = false) => setMessage({ text, error });

  const queueComplete = (list: LabelView[]) => view.queue !== null && view.queue.schemaKeys.every((k) => list.some((l) => l.annotatorId === view.actorId && l.schemaKey === k));

  const finishItem = () => {
    if (!view.queue) return;
    const q = view.queue;
    startTransition(async () => {
      const r = await completeItemAction(q.queueId, q.slotId);
      if (r.ok) router.push(r.href);
      else say(r.error, true);
    });
  };

  /** Accept or reject at once; "changed" first asks for the category (the option picker), then Enter decides. */
  const decide = (sug: SuggestionView, decision: "accepted" | "changed" | "rejected", value?: string) => {
    if (busy) return;
    const sIdx = view.schemas.findIndex((x) => x.id === sug.schemaId);
    if (decision === "changed" && value === undefined) {
      if (sIdx >= 0) setSchemaIdx(sIdx);
      if (sug.targetType === "step_range") {
        setRange([sug.stepStart ?? 0, sug.stepEnd ?? sug.stepStart ?? 0]);
        setMode("range");
      } else if (sug.targetType === "fork_point") {
        setCursor(sug.stepStart ?? 0);
        setMode("fork");
      } else setMode("whole");
      setChanging(sug);
      setPending(null);
      return say(`Changing the suggestion on ${describeTarget(sug)}: pick the right value, then Enter (Esc cancels).`);
    }
    const what = `${suggestionValueLabel(view.schemas, sug)} on ${describeTarget(sug)}`;
    startTransition(async () => {
      try {
        const r = await suggestionApi.decide({ suggestion: sug.key, decision, ...(value !== undefined ? { value } : {}) });
        setSuggestions((list) => list.filter((x) => x.key !== sug.key));
        setSuggestionTotal((n) => Math.max(0, n - 1));
        // The last one loaded is decided: the next range (its key still marks the place).
        if (suggestions.at(-1)?.key === sug.key) void loadMoreSuggestions(cursor);
        setPickedSuggestion(null);
        setChanging(null);
        setPending(null);
        if (r.label) setLabels((ls) => [...ls.filter((l) => l.id !== r.label!.id), r.label!]);
        say(r.decision === "rejected" ? `Rejected the suggestion ${what}.` : r.decision === "accepted" ? `Accepted ${what} as your label.` : `Changed the suggestion ${what} to ${suggestionValueLabel(view.schemas, { schemaId: sug.schemaId, value: r.label?.value ?? "" })}.`);
      } catch (e) {
        say((e as Error).message, true);
        const fresh = await suggestionApi.page(trajectoryId, undefined, Math.max(suggestions.length, SUGGESTION_PAGE)).catch(() => null);
        if (fresh) {
          setSuggestions(fresh.suggestions);
          setSuggestionsMore(fresh.more);
          setSuggestionTotal(fresh.total);
        }
      }
    });
  };

  const submit = () => {
    if (!schema || busy) return;
    if (changing) {
      if (pending === null) return say(`Choose a ${schema.name.toLowerCase()} first (press its key).`, true);
      return decide(changing, "changed", pending);
    }
    if (pending === null) {
      if (queueComplete(labels)) return finishItem();
      return say(`Choose a ${schema.name.toLowerCase()} first (press its key).`, true);
    }
    if (!target?.ok) return say(target?.message ?? "no target", true);
    const value = pending;
    const note = comment.trim() || null;
    startTransition(async () => {
      try {
        let saved: LabelView;
        if (current) {
          saved = await labelApi.update({ id: current.id, version: current.version, value, comment: note });
          setUndoStack((u) => [...u, { kind: "updated", label: saved, previous: { value: current.value, comment: current.comment } }]);
        } else {
          saved = await labelApi.create({ trajectory: trajectoryId, schema: schema.key, value, target: targetInput, comment: note });
          setUndoStack((u) => [...u, { kind: "created", label: saved }]);
        }
        const next = [...labels.filter((l) => l.id !== saved.id), saved];
        setLabels(next);
        setPending(null);
        setComment("");
        say(`Saved ${schema.name}: ${optionLabel(schema.options, value)} on ${describeTarget(saved)}.`);
        if (view.queue && queueComplete(next)) {
          const r = await completeItemAction(view.queue.queueId, view.queue.slotId);
          if (r.ok) router.push(r.href);
          else say(r.error, true);
        } else if (view.queue) {
          const missing = view.queue.schemaKeys.find((k) => !next.some((l) => l.annotatorId === view.actorId && l.schemaKey === k));
          const idx = view.schemas.findIndex((s) => s.key === missing);
          if (idx >= 0) setSchemaIdx(idx);
        }
      } catch (e) {
        say((e as Error).message, true);
        await refresh().catch(() => undefined);
      }
    });
  };

  const undo = () => {
    const last = undoStack.at(-1);
    if (!last || busy) return say("Nothing to undo.", true);
    startTransition(async () => {
      try {
        const live = labels.find((l) => l.id === last.label.id);
        if (!live) throw new Error("that label is gone already");
        if (last.kind === "created") {
          await labelApi.remove(live.id, live.version);
          setLabels((ls) => ls.filter((l) => l.id !== live.id));
        } else {
          const back = await labelApi.update({ id: live.id, version: live.version, value: last.previous.value, comment: last.previous.comment });
          setLabels((ls) => ls.map((l) => (l.id === back.id ? back : l)));
        }
        setUndoStack((u) => u.slice(0, -1));
        say("Undone.");
      } catch (e) {
        say((e as Error).message, true);
        await refresh().catch(() => undefined);
      }
    });
  };

  const clamp = (n: number) => Math.max(0, Math.min(stepCount - 1, n));
  useLabelKeys(keys && view.canLabel, {
    move: (d) => {
      const next = clamp(cursor + d);
      setCursor(next);
      setPickedSuggestion(null);
      coverCursor(next);
    },
    rangeStart: () => {
      setRange(([, e]) => [cursor, Math.max(cursor, e)]);
      setMode("range");
    },
    rangeEnd: () => {
      setRange(([s]) => [Math.min(s, cursor), cursor]);
      setMode("range");
    },
    nextSchema: () => {
      setSchemaIdx((i) => (i + 1) % Math.max(1, view.schemas.length));
      setPending(null);
    },
    pick: (k) => {
      const opt = schema?.options.find((o) => o.hotkey === k && !o.retired);
      if (!opt) return false;
      setPending(opt.value);
      return true;
    },
    submit,
    undo,
    toggleHelp: () => setHelp((h) => !h),
    escape: () => {
      setHelp(false);
      setPending(null);
      setChanging(null);
    },
    suggestion: (decision) => {
      if (!focused) return false;
      decide(focused, decision);
      return true;
    },
  });

  if (!view.schemas.length) return null;
  return (
    <Card aria-label="Labelling" data-hydrated={hydrated ? "true" : "false"}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-0.5">
          <CardTitle>Labels{view.blind ? " (blind: only yours are shown)" : ""}</CardTitle>
          {view.queue ? (
            <p className="text-xs text-muted-foreground" data-testid="queue-bar">
              Queue <span className="font-medium text-foreground">{view.queue.queueName}</span> · item {view.queue.position + 1} of {view.queue.itemCount}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          {view.queue ? <SkipButton queueId={view.queue.queueId} slotId={view.queue.slotId} onError={(t) => say(t, true)} /> : null}
          {view.canLabel ? (
            <Button variant={keys ? "secondary" : "outline"} size="sm" aria-pressed={keys} onClick={() => setKeys((k) => !k)} title="Labelling keys take j/k, [ ], digits and letters from the replay while on">
              <Keyboard aria-hidden /> Keyboard labelling {keys ? "on" : "off"}
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => setHelp((h) => !h)} aria-expanded={help}>?</Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {help ? <ShortcutHelp schema={schema} /> : null}
        {view.canLabel && schema ? (
          <div className="flex flex-col gap-3" data-testid="label-form">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <label className="flex items-center gap-1">
                <span className="text-muted-foreground">Schema</span>
                <select className="h-8 rounded-md border bg-background px-2" value={schemaIdx} onChange={(e) => (setSchemaIdx(Number(e.target.value)), setPending(null))}>
                  {view.schemas.map((s, i) => (
                    <option key={s.id} value={i}>{s.name}{view.queue?.schemaKeys.includes(s.key) ? " (queue)" : ""}</option>
                  ))}
                </select>
              </label>
              <label className="flex items-center gap-1">
                <span className="text-muted-foreground">Target</span>
                <select className="h-8 rounded-md border bg-background px-2" value={effectiveMode} onChange={(e) => setMode(e.target.value as Mode)}>
                  {schema.targets.includes("step_range") ? <option value="range">Steps {range[0]}–{range[1]}</option> : null}
                  {schema.targets.includes("fork_point") && forkSteps.includes(cursor) ? <option value="fork">Fork point at step {cursor}</option> : null}
                  {schema.targets.includes("trajectory") || (view.isAttempt && schema.targets.includes("attempt")) ? <option value="whole">{view.isAttempt && schema.targets.includes("attempt") ? "This attempt" : "Whole trajectory"}</option> : null}
                </select>
              </label>
              {schema.targets.includes("step_range") ? (
                <span className="flex items-center gap-1 text-muted-foreground">
                  cursor <Badge variant="outline" data-testid="step-cursor">step {cursor}</Badge>
                  <input aria-label="Range start" type="number" min={0} max={stepCount - 1} value={range[0]} onChange={(e) => (setRange([clamp(Number(e.target.value)), Math.max(range[1], clamp(Number(e.target.value)))]), setMode("range"))} className="h-8 w-16 rounded-md border bg-background px-2" />
                  –
                  <input aria-label="Range end" type="number" min={0} max={stepCount - 1} value={range[1]} onChange={(e) => (setRange([Math.min(range[0], clamp(Number(e.target.value))), clamp(Number(e.target.value))]), setMode("range"))} className="h-8 w-16 rounded-md border bg-background px-2" />
                </span>
              ) : null}
            </div>
            {schema.description ? <p className="text-xs text-muted-foreground">{schema.description}</p> : null}
            <div className="flex flex-wrap gap-1.5" role="radiogroup" aria-label={schema.name}>
              {schema.options.filter((o) => !o.retired).map((o) => (
                <button
                  key={o.value}
                  type="button"
                  role="radio"
                  aria-checked={pending === o.value}
                  title={o.description}
                  onClick={() => setPending(o.value)}
                  className={cn("inline-flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs", pending === o.value ? "border-primary bg-primary/15 text-foreground" : current?.value === o.value ? "border-primary/50" : "hover:bg-accent")}
                >
                  {o.hotkey ? <kbd className="rounded border bg-muted px-1 font-mono text-[10px]">{o.hotkey}</kbd> : null}
                  {o.parent ? <span className="text-muted-foreground">{optionLabel(schema.options, o.parent)} ›</span> : null}
                  {o.label}
                </button>
              ))}
            </div>
            <OptionHelp options={schema.options} value={pending ?? current?.value ?? null} />
            <div className="flex flex-wrap items-end gap-2">
              <textarea aria-label="Rationale" placeholder="Rationale (optional)" value={comment} onChange={(e) => setComment(e.target.value)} rows={1} className="min-h-8 flex-1 rounded-md border bg-background px-2 py-1 text-sm" />
              <Button size="sm" onClick={submit} disabled={busy}>{current ? "Change label" : "Save label"} <kbd className="font-mono text-[10px] opacity-70">Enter</kbd></Button>
              <Button size="sm" variant="outline" onClick={undo} disabled={busy || undoStack.length === 0}>Undo <kbd className="font-mono text-[10px] opacity-70">u</kbd></Button>
            </div>
            {target && !target.ok ? <p className="text-xs text-destructive">{target.message}</p> : null}
          </div>
        ) : null}
        {changing ? (
          <p className="rounded-md border border-primary/50 bg-primary/5 px-2 py-1 text-xs" data-testid="changing-suggestion">
            Changing the {changing.source === "detector" ? "detector's" : `${changing.source.replace(/^imported:/, "")}'s`} suggestion {suggestionValueLabel(view.schemas, changing)} on {describeTarget(changing)} — pick a value above, then Enter.
          </p>
        ) : null}
        {view.canLabel ? (
          <SuggestionList
            suggestions={suggestions}
            total={suggestionTotal}
            more={suggestionsMore}
            onMore={() => void loadMoreSuggestions()}
            schemas={view.schemas}
            focusedKey={focused?.key}
            changingKey={changing?.key ?? null}
            busy={busy}
            onFocus={(x) => (setPickedSuggestion(x.key), setCursor(clamp(x.stepStart ?? 0)))}
            onDecide={(x, d) => decide(x, d)}
          />
        ) : null}
        {message ? (
          <p role={message.error ? "alert" : "status"} className={cn("text-sm", message.error ? "text-destructive" : "text-muted-foreground")}>{message.text}</p>
        ) : null}
        <LabelList labels={labels} schemas={view.schemas} history={view.history} />
      </CardContent>
    </Card>
  );
}

const noopSubscribe = () => () => undefined;
/** Suggestions fetched per range after the first page. */
const SUGGESTION_PAGE = 100;

/** The chosen (or current) option's description, readable while labelling without hovering (issue 9b). */
function OptionHelp({ options, value }: { options: { value: string; label: string; description?: string }[]; value: string | null }) {
  const o = value === null ? undefined : options.find((x) => x.value === value);
  if (!o?.description) return null;
  return <p className="rounded-md bg-muted/50 px-2 py-1 text-xs" data-testid="option-description"><span className="font-medium">{o.label}:</span> <span className="text-muted-foreground">{o.description}</span></p>;
}

function optionLabel(options: { value: string; label: string }[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}

function SkipButton({ queueId, slotId, onError }: { queueId: string; slotId: string; onError: (t: string) => void }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, start] = useTransition();
  if (!open) return <Button size="sm" variant="outline" onClick={() => setOpen(true)}>Skip…</Button>;
  return (
    <form
      className="flex items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await skipItemAction(queueId, slotId, reason);
          if (r.ok) router.push(r.href);
          else onError(r.error);
        });
      }}
    >
      <input autoFocus aria-label="Skip reason" placeholder="Why skip?" value={reason} onChange={(e) => setReason(e.target.value)} className="h-8 w-48 rounded-md border bg-background px-2 text-sm" />
      <Button size="sm" type="submit" disabled={busy || !reason.trim()}>Skip</Button>
    </form>
  );
}
