"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { ShieldBan, X } from "lucide-react";
import { addHeldOutAction, removeHeldOutAction } from "@/lib/actions/datasets";
import { formatCount } from "@/lib/format";
import { Button } from "@/components/ui/button";
import { FieldLabel, Input } from "@/components/ui/input";

export interface HeldOutRow {
  id: string;
  benchmark: string;
  externalId: string;
  reason: string | null;
}

/** "benchmark/id", or the bare id when the task is held out of every benchmark ("*"). */
const refOf = (h: HeldOutRow) => `${h.benchmark}/${h.externalId}`;
const shownRef = (h: HeldOutRow) => (h.benchmark === "*" ? h.externalId : refOf(h));

/** Tasks kept out of training data (freeze and export refuse them unless overridden): list, add pasted ids, remove. */
export function HeldOutPanel({ tasks }: { tasks: HeldOutRow[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();

  const remove = (h: HeldOutRow) =>
    start(async () => {
      const r = await removeHeldOutAction({ tasks: [refOf(h)] });
      setMessage(r.ok ? { ok: true, text: `Released ${shownRef(h)}.` } : { ok: false, text: r.error });
      router.refresh();
    });

  return (
    <div className="flex flex-col gap-4">
      <form
        aria-label="Add held-out tasks"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          start(async () => {
            const r = await addHeldOutAction({
              tasks: String(data.get("tasks") ?? ""),
              reason: String(data.get("reason") ?? "") || undefined,
            });
            if (!r.ok) return setMessage({ ok: false, text: r.error });
            setMessage({ ok: true, text: `Held out ${formatCount(r.data.added)} new task${r.data.added === 1 ? "" : "s"}.` });
            form.reset();
            router.refresh();
          });
        }}
      >
        <FieldLabel className="min-w-64 flex-1">
          Task ids, one per line
          <textarea
            name="tasks"
            required
            rows={3}
            placeholder={"terminal-bench/fix-permissions\nhello-world"}
            className="rounded-md border bg-background px-3 py-2 font-mono text-sm"
          />
        </FieldLabel>
        <FieldLabel className="min-w-48">
          Reason
          <Input name="reason" maxLength={500} placeholder="e.g. evaluation set" />
        </FieldLabel>
        <Button type="submit" size="sm" disabled={pending}>
          <ShieldBan aria-hidden /> Hold out
        </Button>
      </form>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-muted-foreground" : "text-sm text-destructive"}>
          {message.text}
        </p>
      ) : null}
      {tasks.length ? (
        <ul aria-label="Held-out tasks" className="divide-y rounded-md border text-sm">
          {tasks.map((h) => (
            <li key={h.id} data-testid="held-out-row" className="flex items-center gap-3 px-3 py-1.5">
              <span className="font-mono">{shownRef(h)}</span>
              {h.benchmark === "*" ? <span className="text-xs text-muted-foreground">any benchmark</span> : null}
              <span className="min-w-0 flex-1 truncate text-muted-foreground">{h.reason ?? ""}</span>
              <Button variant="ghost" size="sm" onClick={() => remove(h)} disabled={pending} aria-label={`Release ${shownRef(h)}`}>
                <X aria-hidden /> Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No tasks are held out. Freeze and export accept every task.</p>
      )}
    </div>
  );
}
