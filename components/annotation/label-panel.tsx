"use client";
// Labelling next to the replay: a target (the schema's default — the fork point, the first error step — or one the
// annotator picks), a value from the schema (hotkeys), an optional rationale, and submit. Keyboard-first (see the ?
// overlay). In a queue, Enter on the last schema saves, finishes the item and opens the next in one round trip, and
// `u` withdraws the last submission even after the next item opened. Pending suggestions are listed above the
// labels: a accepts the focused one, c changes it (pick a category, Enter), x rejects it. State: label-panel/state.ts.
import { useCallback, useEffect, useMemo, useReducer, useState, useSyncExternalStore, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Keyboard } from "lucide-react";
import type { LabellingView } from "@/lib/services/annotation/labelling-view";
import { describeTarget } from "@/lib/domain/annotation/targets";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { completeItemAction, submitQueueLabelAction, withdrawSubmissionAction } from "@/lib/actions/annotation";
import { labelApi, suggestionApi, type LabelView, type SuggestionView } from "./label-api";
import { focusedSuggestion, SuggestionList, suggestionValueLabel } from "./suggestion-list";
import { useLabelKeys } from "./use-label-keys";
import { LabelList } from "./label-list";
import { publishStepLabels, stepLabelsOf } from "./step-labels";
import { ShortcutHelp } from "./shortcut-help";
import { currentTarget, effectiveMode, initialPanelState, panelReducer, type PanelFacts } from "./label-panel/state";
import { undoStore, type UndoEntry } from "./label-panel/undo-store";
import { useSuggestions } from "./label-panel/use-suggestions";
import { SkipButton } from "./label-panel/skip-button";
import { optionLabel, ValuePicker } from "./label-panel/value-picker";
import { TargetLine, TargetPicker } from "./label-panel/target-picker";
import { cn } from "@/lib/utils";

export function LabelPanel({
  trajectoryId,
  stepCount,
  forkSteps,
  view,
  onAdvance,
  className,
}: {
  trajectoryId: string;
  stepCount: number;
  forkSteps: number[];
  view: LabellingView;
  /** Where the queue goes next (the queue item page navigates without a page load); default: router.push. */
  onAdvance?: (href: string) => void;
  className?: string;
}) {
  const router = useRouter();
  const advance = onAdvance ?? ((href: string) => router.push(href));
  const facts: PanelFacts = useMemo(
    () => ({ schemas: view.schemas, defaults: view.defaults, stepCount, forkSteps, isAttempt: view.isAttempt, trajectoryId }),
    [view, stepCount, forkSteps, trajectoryId],
  );
  const reducer = useMemo(() => panelReducer(facts), [facts]);
  const [s, dispatch] = useReducer(reducer, facts, (f) =>
    initialPanelState(f, { keys: view.queue !== null, cursorFollows: view.queue !== null }),
  );
  const [labels, setLabels] = useState<LabelView[]>(view.labels);
  useEffect(() => publishStepLabels(trajectoryId, stepLabelsOf(labels)), [labels, trajectoryId]);
  const scope = view.queue ? `queue:${view.queue.queueId}` : `trajectory:${trajectoryId}`;
  const [undoCount, setUndoCount] = useState(0);
  useEffect(() => setUndoCount(undoStore.size(scope)), [scope]);
  const pushUndo = (e: UndoEntry) => (undoStore.push(scope, e), setUndoCount(undoStore.size(scope)));
  const [busy, startTransition] = useTransition();
  // True once hydrated (keys work from then on); tests and the "keys on" badge rely on it.
  const hydrated = useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
  const say = useCallback((text: string, error = false) => dispatch({ type: "say", text, error }), []);
  const sug = useSuggestions(
    trajectoryId,
    { suggestions: view.suggestions, more: view.suggestionsMore, total: view.suggestionTotal },
    (t) => say(t, true),
  );

  const schema = view.schemas[s.schemaIdx];
  const mode = effectiveMode(s, schema, view.isAttempt);
  const { input: targetInput, target, isDefault } = currentTarget(s, facts);
  const mine = (schemaId: string, key: string) =>
    labels.find((l) => l.annotatorId === view.actorId && l.schemaId === schemaId && l.targetKey === key);
  const current = schema && target?.ok ? mine(schema.id, target.target.key) : undefined;
  const focused = sug.list.find((x) => x.key === s.picked) ?? (sug.covers(s.cursor) ? focusedSuggestion(sug.list, s.cursor) : undefined);
  const refresh = async () => setLabels((await labelApi.list(trajectoryId)).labels);
  const queueComplete = (list: LabelView[]) =>
    view.queue !== null && view.queue.schemaKeys.every((k) => list.some((l) => l.annotatorId === view.actorId && l.schemaKey === k));

  const finishItem = () => {
    const q = view.queue;
    if (!q) return;
    startTransition(async () => {
      const r = await completeItemAction({ queueId: q.queueId, slotId: q.slotId });
      if (r.ok) advance(r.data.href);
      else say(r.error, true);
    });
  };

  const decide = (x: SuggestionView, decision: "accepted" | "changed" | "rejected", value?: string) => {
    if (busy) return;
    if (decision === "changed" && value === undefined) {
      dispatch({ type: "change", suggestion: x });
      return say(`Changing the suggestion on ${describeTarget(x)}: pick the right value, then Enter (Esc cancels).`);
    }
    const what = `${suggestionValueLabel(view.schemas, x)} on ${describeTarget(x)}`;
    startTransition(async () => {
      try {
        const r = await suggestionApi.decide({ suggestion: x.key, decision, ...(value !== undefined ? { value } : {}) });
        sug.removed(x.key, s.cursor);
        pushUndo({ kind: "decision", suggestion: x.key, trajectoryId, labelId: r.label?.id ?? null });
        dispatch({ type: "decided" });
        if (r.label) setLabels((ls) => [...ls.filter((l) => l.id !== r.label!.id), r.label!]);
        say(
          r.decision === "rejected"
            ? `Rejected the suggestion ${what}.`
            : r.decision === "accepted"
              ? `Accepted ${what} as your label.`
              : `Changed the suggestion ${what} to ${suggestionValueLabel(view.schemas, { schemaId: x.schemaId, value: r.label?.value ?? "" })}.`,
        );
      } catch (e) {
        say((e as Error).message, true);
        await sug.reload();
      }
    });
  };

  const submit = () => {
    if (!schema || busy) return;
    if (s.changing) {
      if (s.pending === null) return say(`Choose a ${schema.name.toLowerCase()} first (press its key).`, true);
      return decide(s.changing, "changed", s.pending);
    }
    if (s.pending === null) {
      if (queueComplete(labels)) return finishItem();
      return say(`Choose a ${schema.name.toLowerCase()} first (press its key).`, true);
    }
    if (!target?.ok) return say(target?.message ?? "no target", true);
    const value = s.pending;
    const note = s.comment.trim() || null;
    const q = view.queue;
    startTransition(async () => {
      try {
        let saved: LabelView;
        let previous: { value: string; comment: string | null } | null = current
          ? { value: current.value, comment: current.comment }
          : null;
        let href: string | null = null;
        if (q) {
          const r = await submitQueueLabelAction({
            queueId: q.queueId,
            slotId: q.slotId,
            label: {
              ...(current ? { id: current.id, version: current.version } : {}),
              trajectory: trajectoryId,
              schema: schema.key,
              value,
              target: targetInput,
              comment: note,
            },
          });
          if (!r.ok) throw new Error(r.error);
          ({ label: saved, previous, href } = r.data);
        } else if (current) {
          saved = await labelApi.update({ id: current.id, version: current.version, value, comment: note });
        } else {
          saved = await labelApi.create({ trajectory: trajectoryId, schema: schema.key, value, target: targetInput, comment: note });
        }
        const slot = q ? { queueId: q.queueId, slotId: q.slotId, finished: href !== null } : undefined;
        pushUndo(previous ? { kind: "updated", label: saved, previous, slot } : { kind: "created", label: saved, slot });
        const next = [...labels.filter((l) => l.id !== saved.id), saved];
        setLabels(next);
        dispatch({ type: "saved" });
        say(`Saved ${schema.name}: ${optionLabel(schema.options, value)} on ${describeTarget(saved)}.`);
        if (href) return advance(href);
        if (q) {
          const missing = q.schemaKeys.find((k) => !next.some((l) => l.annotatorId === view.actorId && l.schemaKey === k));
          const idx = view.schemas.findIndex((x) => x.key === missing);
          if (idx >= 0) dispatch({ type: "schema", idx });
        }
      } catch (e) {
        say((e as Error).message, true);
        await refresh().catch(() => undefined);
      }
    });
  };

  const undo = () => {
    const last = undoStore.peek(scope);
    if (!last || busy) return say("Nothing to undo.", true);
    startTransition(async () => {
      try {
        if (last.kind === "decision") {
          // The decision goes, with the label accepting or changing made; the suggestion is offered again.
          await suggestionApi.withdraw(last.suggestion);
          undoStore.pop(scope);
          setUndoCount(undoStore.size(scope));
          if (last.labelId) setLabels((ls) => ls.filter((l) => l.id !== last.labelId));
          await sug.reload();
          return say("Undone: the suggestion is back.");
        }
        const live = labels.find((l) => l.id === last.label.id) ?? last.label;
        const previous = last.kind === "updated" ? last.previous : null;
        if (last.slot?.finished) {
          // The submission finished its item: withdraw it and go back to that item.
          const r = await withdrawSubmissionAction({
            queueId: last.slot.queueId,
            slotId: last.slot.slotId,
            label: { id: live.id, version: live.version, previous },
          });
          if (!r.ok) throw new Error(r.error);
          undoStore.pop(scope);
          setUndoCount(undoStore.size(scope));
          return advance(r.data.href);
        }
        if (previous) {
          const back = await labelApi.update({ id: live.id, version: live.version, value: previous.value, comment: previous.comment });
          setLabels((ls) => ls.map((l) => (l.id === back.id ? back : l)));
        } else {
          await labelApi.remove(live.id, live.version);
          setLabels((ls) => ls.filter((l) => l.id !== live.id));
        }
        undoStore.pop(scope);
        setUndoCount(undoStore.size(scope));
        say("Undone.");
      } catch (e) {
        say((e as Error).message, true);
        await refresh().catch(() => undefined);
      }
    });
  };

  useLabelKeys(s.keys && view.canLabel, {
    move: (d) => {
      dispatch({ type: "move", by: d });
      sug.cover(Math.max(0, Math.min(stepCount - 1, s.cursor + d)));
    },
    rangeStart: () => dispatch({ type: "rangeStart" }),
    rangeEnd: () => dispatch({ type: "rangeEnd" }),
    nextSchema: () => dispatch({ type: "nextSchema" }),
    pick: (k) => {
      const opt = schema?.options.find((o) => o.hotkey === k && !o.retired);
      if (!opt) return false;
      dispatch({ type: "pick", value: opt.value });
      return true;
    },
    submit,
    undo,
    toggleHelp: () => dispatch({ type: "help" }),
    escape: () => dispatch({ type: "escape" }),
    suggestion: (decision) => {
      if (!focused) return false;
      decide(focused, decision);
      return true;
    },
  });

  if (!view.schemas.length) return null;
  const q = view.queue;
  return (
    <Card aria-label="Labelling" data-hydrated={hydrated ? "true" : "false"} className={className}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-0.5">
          <CardTitle>Labels{view.blind ? " (blind: only yours are shown)" : ""}</CardTitle>
          {q ? (
            <p className="text-xs text-muted-foreground" data-testid="queue-bar">
              Queue <span className="font-medium text-foreground">{q.queueName}</span> · item {q.position + 1} of {q.itemCount}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          {q ? <SkipButton queueId={q.queueId} slotId={q.slotId} onDone={advance} onError={(t) => say(t, true)} /> : null}
          {view.canLabel ? (
            <Button
              variant={s.keys ? "secondary" : "outline"}
              size="sm"
              aria-pressed={s.keys}
              onClick={() => dispatch({ type: "keys" })}
              title="Labelling keys take j/k, [ ], digits and letters from the replay while on"
            >
              <Keyboard aria-hidden /> Keyboard labelling {s.keys ? "on" : "off"}
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => dispatch({ type: "help" })} aria-expanded={s.help}>
            ?
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex min-h-0 flex-col gap-3">
        {s.help ? <ShortcutHelp schema={schema} /> : null}
        {view.canLabel && schema ? (
          <div className="flex flex-col gap-2.5" data-testid="label-form">
            <TargetPicker
              s={s}
              dispatch={dispatch}
              schemas={view.schemas}
              schema={schema}
              mode={mode}
              forkSteps={forkSteps}
              isAttempt={view.isAttempt}
              stepCount={stepCount}
              queueKeys={q?.schemaKeys ?? null}
            />
            <TargetLine
              target={target?.ok ? target.target : null}
              defaultWords={isDefault ? (view.defaults[schema.id]?.words ?? null) : null}
            />
            {current ? (
              <p className="text-xs text-muted-foreground" data-testid="label-review">
                You labelled this target {optionLabel(schema.options, current.value)} (version {current.version}): Enter keeps it, a value
                key changes it.
              </p>
            ) : null}
            {schema.description ? <p className="text-xs text-muted-foreground">{schema.description}</p> : null}
            <ValuePicker
              schema={schema}
              pending={s.pending}
              current={current?.value}
              onPick={(value) => dispatch({ type: "pick", value })}
            />
            <div className="flex flex-wrap items-end gap-2">
              <textarea
                aria-label="Rationale"
                placeholder="Rationale (optional)"
                value={s.comment}
                onChange={(e) => dispatch({ type: "comment", text: e.target.value })}
                rows={1}
                className="min-h-8 flex-1 rounded-md border bg-background px-2 py-1 text-sm"
              />
              <Button size="sm" onClick={submit} disabled={busy}>
                {current ? "Change label" : "Save label"} <kbd className="font-mono text-[10px] opacity-70">Enter</kbd>
              </Button>
              <Button size="sm" variant="outline" onClick={undo} disabled={busy || undoCount === 0}>
                Undo <kbd className="font-mono text-[10px] opacity-70">u</kbd>
              </Button>
            </div>
            {target && !target.ok ? <p className="text-xs text-destructive">{target.message}</p> : null}
          </div>
        ) : null}
        {s.changing ? (
          <p className="rounded-md border border-primary/50 bg-primary/5 px-2 py-1 text-xs" data-testid="changing-suggestion">
            Changing the {s.changing.source === "detector" ? "detector's" : `${s.changing.source.replace(/^imported:/, "")}'s`} suggestion{" "}
            {suggestionValueLabel(view.schemas, s.changing)} on {describeTarget(s.changing)} — pick a value above, then Enter.
          </p>
        ) : null}
        {s.message ? (
          <p
            role={s.message.error ? "alert" : "status"}
            className={cn("text-sm", s.message.error ? "text-destructive" : "text-muted-foreground")}
          >
            {s.message.text}
          </p>
        ) : null}
        {view.canLabel ? (
          <SuggestionList
            suggestions={sug.list}
            total={sug.total}
            more={sug.more}
            onMore={() => void sug.loadMore()}
            schemas={view.schemas}
            focusedKey={focused?.key}
            changingKey={s.changing?.key ?? null}
            busy={busy}
            onFocus={(x) => dispatch({ type: "focusSuggestion", key: x.key, step: x.stepStart ?? 0 })}
            onDecide={(x, d) => decide(x, d)}
          />
        ) : null}
        <LabelList labels={labels} schemas={view.schemas} history={view.history} />
      </CardContent>
    </Card>
  );
}

const noopSubscribe = () => () => undefined;
