"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Plus, Tags, X } from "lucide-react";
import { createDatasetFromLabelsAction } from "@/lib/actions/datasets";
import { LABEL_SOURCES, type LabelSource } from "@/lib/domain/curation/label-rules";
import { Button } from "@/components/ui/button";
import { FieldLabel, Input, NativeSelect } from "@/components/ui/input";
import { DatasetNameFields } from "./dataset-name-fields";

interface Condition {
  by: LabelSource;
  schema: string;
  op: "min" | "values";
  value: string;
}
const SOURCE_TEXT: Record<LabelSource, string> = {
  any: "any label",
  gold: "gold (adjudicated)",
  majority: "annotators' majority",
  all: "all annotators agree",
};

/** "Create a dataset from labels": conditions on gold labels or a queue's agreed labels, all of which must hold. */
export function LabelRuleForm({
  schemas,
  queues,
}: {
  schemas: { key: string; name: string; kind: string }[];
  queues: { name: string; labelsPerItem: number }[];
}) {
  const router = useRouter();
  const first = schemas.find((s) => s.key === "recovery-quality") ?? schemas[0];
  const [conditions, setConditions] = useState<Condition[]>([{ by: "gold", schema: first?.key ?? "", op: "min", value: "2" }]);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const set = (i: number, patch: Partial<Condition>) => setConditions((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Create dataset from labels"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        start(async () => {
          const r = await createDatasetFromLabelsAction({
            name: String(data.get("name") ?? ""),
            kind: data.get("kind") === "segment" ? "segment" : "trajectory",
            queue: String(data.get("queue") ?? "") || undefined,
            conditions: conditions.map((c) => ({
              schema: c.schema,
              by: c.by,
              ...(c.op === "min"
                ? { min: Number(c.value) }
                : {
                    values: c.value
                      .split(",")
                      .map((v) => v.trim())
                      .filter(Boolean),
                  }),
            })),
          });
          if (!r.ok) return setError(r.error);
          router.push(`/datasets/${encodeURIComponent(r.data.name)}`);
        });
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <DatasetNameFields defaultKind="segment" placeholder="usable-recoveries" invalid={!!error} />
        <FieldLabel>
          Queue
          <NativeSelect name="queue" defaultValue="" aria-label="Queue">
            <option value="">All labelled trajectories</option>
            {queues.map((q) => (
              <option key={q.name} value={q.name}>
                {q.name} ({q.labelsPerItem} per item)
              </option>
            ))}
          </NativeSelect>
        </FieldLabel>
      </div>
      <ol className="flex flex-col gap-2" aria-label="Label conditions (all must hold)">
        {conditions.map((c, i) => (
          <li key={i} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-10 text-muted-foreground">{i === 0 ? "Where" : "and"}</span>
            <NativeSelect
              value={c.by}
              onChange={(e) => set(i, { by: e.target.value as LabelSource })}
              aria-label={`Condition ${i + 1}: whose label`}
            >
              {LABEL_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {SOURCE_TEXT[s]}
                </option>
              ))}
            </NativeSelect>
            <NativeSelect value={c.schema} onChange={(e) => set(i, { schema: e.target.value })} aria-label={`Condition ${i + 1}: schema`}>
              {schemas.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.name}
                </option>
              ))}
            </NativeSelect>
            <NativeSelect
              value={c.op}
              onChange={(e) => set(i, { op: e.target.value as Condition["op"] })}
              aria-label={`Condition ${i + 1}: comparison`}
            >
              <option value="min">≥</option>
              <option value="values">is one of</option>
            </NativeSelect>
            <Input
              value={c.value}
              onChange={(e) => set(i, { value: e.target.value })}
              required
              className="w-40"
              placeholder={c.op === "min" ? "2" : "true, usable"}
              aria-label={`Condition ${i + 1}: value`}
            />
            {conditions.length > 1 ? (
              <Button
                type="button"
                size="icon"
                variant="ghost"
                onClick={() => setConditions((cs) => cs.filter((_, j) => j !== i))}
                aria-label={`Remove condition ${i + 1}`}
              >
                <X aria-hidden />
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={conditions.length >= 10}
          onClick={() => setConditions((cs) => [...cs, { by: cs.at(-1)?.by ?? "gold", schema: "sft-usable", op: "values", value: "true" }])}
        >
          <Plus aria-hidden /> Add condition
        </Button>
        <Button type="submit" size="sm" disabled={pending} data-testid="create-from-labels">
          <Tags aria-hidden /> {pending ? "Creating…" : "Create dataset from labels"}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        Majority / all count the labels on each target; with a queue, a target needs the queue&apos;s labels per item. The rule is stored
        with the dataset, so “rebuild” re-applies it to new labels.
      </p>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
