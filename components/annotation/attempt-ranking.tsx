"use client";
// Rank the attempts of one fork point best → worst. Keyboard: focus an attempt (Tab, or ↑/↓ between attempts),
// Alt+↑ / Alt+↓ move it, Enter saves. Mouse: drag an attempt onto another's place (plain HTML5 drag and drop — no
// drag library is installed). Saved as a label of the ranking schema on the fork point, through the labels API, so
// it has history and a stale save is refused (409) like any label.
import { useEffect, useRef, useState, useTransition } from "react";
import { GripVertical } from "lucide-react";
import type { RankingView } from "@/lib/services/annotation/attempt-ranking";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { labelApi } from "./label-api";
import { cn } from "@/lib/utils";
import { formatReward } from "@/lib/format";

export interface RankedAttempt {
  id: string;
  attemptIndex: number | null;
  outcome: string;
  reward: number | null;
  stepCount: number;
}

/** The saved order, with attempts it does not name (imported later) appended in their own order. */
function initialOrder(attempts: RankedAttempt[], saved: string | null): string[] {
  let ids: string[] = [];
  try {
    ids = saved ? (JSON.parse(saved) as string[]) : [];
  } catch {
    ids = [];
  }
  const known = new Set(attempts.map((a) => a.id));
  const kept = ids.filter((id) => known.has(id));
  return [...kept, ...attempts.map((a) => a.id).filter((id) => !kept.includes(id))];
}

export function AttemptRanking({
  parentId,
  forkStep,
  attempts,
  view,
}: {
  parentId: string;
  forkStep: number;
  attempts: RankedAttempt[];
  view: RankingView;
}) {
  const [mine, setMine] = useState(view.mine);
  const [order, setOrder] = useState(() => initialOrder(attempts, view.mine?.value ?? null));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [busy, start] = useTransition();
  const items = useRef(new Map<string, HTMLLIElement>());
  const focusAfter = useRef<string | null>(null);
  const byId = new Map(attempts.map((a, i) => [a.id, { ...a, n: (a.attemptIndex ?? i) + 1 }]));
  const dirty = JSON.stringify(order) !== JSON.stringify(initialOrder(attempts, mine?.value ?? null)) || !mine;

  useEffect(() => {
    if (focusAfter.current) items.current.get(focusAfter.current)?.focus();
    focusAfter.current = null;
  }, [order]);

  const move = (id: string, to: number) => {
    setOrder((o) => {
      const from = o.indexOf(id);
      if (from < 0 || to < 0 || to >= o.length || from === to) return o;
      const next = o.filter((x) => x !== id);
      next.splice(to, 0, id);
      return next;
    });
    focusAfter.current = id;
  };

  const save = () => {
    if (!view.canRank || busy) return;
    const value = JSON.stringify(order);
    start(async () => {
      try {
        const saved = mine
          ? await labelApi.update({ id: mine.id, version: mine.version, value })
          : await labelApi.create({ trajectory: parentId, schema: view.schema.key, value, target: { forkStep } });
        setMine({ id: saved.id, version: saved.version, value: saved.value, updatedAt: saved.updatedAt });
        setMessage({ error: false, text: `Ranking saved (version ${saved.version}).` });
      } catch (e) {
        setMessage({ error: true, text: (e as Error).message });
        // Show what is stored now (someone else's save, or our own from another tab), keeping nothing stale.
        const fresh = (await labelApi.list(parentId).catch(() => null))?.labels.find(
          (l) => l.schemaKey === view.schema.key && l.targetKey === view.targetKey && l.annotatorId === view.actorId,
        );
        if (fresh) setMine({ id: fresh.id, version: fresh.version, value: fresh.value, updatedAt: fresh.updatedAt });
      }
    });
  };

  const onKey = (e: React.KeyboardEvent<HTMLLIElement>, id: string, i: number) => {
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      const d = e.key === "ArrowUp" ? -1 : 1;
      if (e.altKey) move(id, i + d);
      else items.current.get(order[i + d] ?? "")?.focus();
    } else if (e.key === "Enter") {
      e.preventDefault();
      save();
    }
  };

  return (
    <Card aria-label="Rank attempts">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-0.5">
          <CardTitle>{view.schema.name}: best → worst</CardTitle>
          <p className="text-xs text-muted-foreground">
            {view.schema.description ? `${view.schema.description} ` : ""}Focus an attempt,{" "}
            <kbd className="rounded border px-1 font-mono">Alt+↑</kbd>/<kbd className="rounded border px-1 font-mono">Alt+↓</kbd> to move
            it, <kbd className="rounded border px-1 font-mono">Enter</kbd> to save; or drag.
          </p>
        </div>
        {view.canRank ? (
          <div className="flex items-center gap-2">
            {mine ? (
              <span className="text-xs text-muted-foreground" data-testid="ranking-version">
                your ranking v{mine.version}
              </span>
            ) : null}
            <Button size="sm" onClick={save} disabled={busy || !dirty}>
              Save ranking <kbd className="font-mono text-[10px] opacity-70">Enter</kbd>
            </Button>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <ol className="flex flex-col gap-1" aria-label="Attempts, best first" data-testid="ranking-list">
          {order.map((id, i) => {
            const a = byId.get(id)!;
            return (
              <li
                key={id}
                ref={(el) => {
                  if (el) items.current.set(id, el);
                  else items.current.delete(id);
                }}
                tabIndex={0}
                draggable={view.canRank}
                aria-label={`Rank ${i + 1}: attempt #${a.n}, ${a.outcome}`}
                data-attempt-id={id}
                onKeyDown={view.canRank ? (e) => onKey(e, id, i) : undefined}
                onDragStart={(e) => (setDragging(id), e.dataTransfer.setData("text/plain", id), (e.dataTransfer.effectAllowed = "move"))}
                onDragEnd={() => setDragging(null)}
                onDragOver={(e) => (dragging ? e.preventDefault() : undefined)}
                onDrop={(e) => {
                  e.preventDefault();
                  const moved = e.dataTransfer.getData("text/plain") || dragging;
                  if (moved) move(moved, i);
                  setDragging(null);
                }}
                className={cn(
                  "flex items-center gap-3 rounded-md border bg-background px-2 py-1.5 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  dragging === id && "opacity-50",
                  view.canRank && "cursor-grab",
                )}
              >
                <span className="w-6 text-right font-semibold tabular-nums">{i + 1}.</span>
                {view.canRank ? <GripVertical className="size-4 text-muted-foreground" aria-hidden /> : null}
                <span className="font-medium">Attempt #{a.n}</span>
                <span
                  className={
                    a.outcome === "passed" ? "text-success" : a.outcome === "failed" ? "text-destructive" : "text-muted-foreground"
                  }
                >
                  {a.outcome}
                </span>
                <span className="text-xs text-muted-foreground">
                  r={formatReward(a.reward)} · {a.stepCount} steps
                </span>
              </li>
            );
          })}
        </ol>
        {message ? (
          <p
            role={message.error ? "alert" : "status"}
            className={cn("text-sm", message.error ? "text-destructive" : "text-muted-foreground")}
          >
            {message.text}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
