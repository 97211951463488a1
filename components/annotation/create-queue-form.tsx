"use client";
// Researchers create a queue from a trajectories-table filter (the table's query string: every matching row).
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { createQueueAction } from "@/lib/actions/annotation";

const input = "h-9 rounded-md border bg-background px-2 text-sm";

export function CreateQueueForm({ schemas, defaultFilter }: { schemas: { key: string; name: string }[]; defaultFilter: string }) {
  const [state, action, pending] = useActionState(createQueueAction, null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>New queue</CardTitle>
        <p className="text-xs text-muted-foreground">
          Every trajectory matching the filter becomes one item (not just the visible page); duplicates are dropped.
        </p>
      </CardHeader>
      <CardContent>
        <form action={action} className="grid gap-3 sm:grid-cols-2">
          <label className="flex flex-col gap-1 text-sm">
            Name
            <input name="name" required maxLength={120} className={input} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Filter (trajectories table query)
            <input name="filter" defaultValue={defaultFilter} placeholder="outcome=failed&error=timeout" className={`${input} font-mono`} />
          </label>
          <fieldset className="flex flex-col gap-1 text-sm">
            <legend className="mb-1">Schemas</legend>
            {schemas.map((s, i) => (
              <label key={s.key} className="flex items-center gap-2">
                <input type="checkbox" name="schemas" value={s.key} defaultChecked={i === 0} /> {s.name}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-2 text-sm">
            <label className="flex flex-col gap-1">
              Annotators (names, comma-separated)
              <input name="assignees" className={input} placeholder="alice, bob" />
            </label>
            <label className="flex items-center gap-2">
              Labels per item
              <input name="labelsPerItem" type="number" min={1} max={10} defaultValue={2} className={`${input} w-20`} />
            </label>
            <label className="flex items-center gap-2" title="An item an annotator leaves untouched this long goes back to the queue">
              Reservation kept while idle (min)
              <input name="reservationMinutes" type="number" min={1} max={1440} defaultValue={30} className={`${input} w-20`} />
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="blind" defaultChecked /> Blind (annotators do not see each other&apos;s labels)
            </label>
          </div>
          <div className="flex items-center gap-3 sm:col-span-2">
            <Button type="submit" disabled={pending}>
              Create queue
            </Button>
            {state && !state.ok ? (
              <p role="alert" className="text-sm text-destructive">
                {state.error}
              </p>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
