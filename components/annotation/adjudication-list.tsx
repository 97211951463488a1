// Each labelled target with every annotator's value, the final label if recorded, and the form to record it.
import Link from "next/link";
import type { AdjudicationTarget } from "@/lib/services/annotation/adjudicate";
import { valueLabel, type LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import type { TargetInput } from "@/lib/domain/annotation/targets";
import { describeTarget } from "@/lib/domain/annotation/describe-target";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { GoldForm } from "./gold-form";

function targetInput(t: AdjudicationTarget): TargetInput | undefined {
  if (t.targetType === "step_range") return { steps: [t.stepStart!, t.stepEnd!] };
  if (t.targetType === "fork_point") return { forkStep: t.stepStart! };
  if (t.targetType === "attempt") return { attempt: true };
  return undefined;
}

export function AdjudicationList({
  trajectoryId,
  targets,
  schemas,
}: {
  trajectoryId: string;
  targets: AdjudicationTarget[];
  schemas: LabelSchemaView[];
}) {
  if (!targets.length) return <p className="text-sm text-muted-foreground">No labels on this trajectory yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      {targets.map((t) => {
        const schema = schemas.find((s) => s.id === t.schemaId);
        const label = (v: string) => (schema ? valueLabel(schema, v) : v);
        return (
          <Card key={`${t.schemaId}|${t.targetKey}`} data-testid="adjudication-target">
            <CardContent className="flex flex-col gap-2">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{schema?.name ?? t.schemaKey}</span>
                <span className="text-muted-foreground">· {describeTarget(t)}</span>
                {t.stepStart !== null ? (
                  <Link className="text-xs text-primary hover:underline" href={`/trajectories/${trajectoryId}?step=${t.stepStart}`}>
                    replay at step {t.stepStart}
                  </Link>
                ) : null}
                {t.agreed ? <Badge variant="success">agreed</Badge> : <Badge variant="warning">disagreement</Badge>}
                {t.gold ? (
                  <Badge variant="primary" data-testid="gold-label">
                    final: {label(t.gold.value)}
                  </Badge>
                ) : null}
              </div>
              <ul className="flex flex-wrap gap-3 text-sm">
                {t.labels.map((l) => (
                  <li key={l.id}>
                    <span className="text-muted-foreground">{l.annotatorName}:</span> {label(l.value)}
                    {l.comment ? <span className="text-xs text-muted-foreground"> — “{l.comment}”</span> : null}
                  </li>
                ))}
              </ul>
              {schema && (schema.kind === "categorical" || schema.kind === "ordinal" || schema.kind === "boolean") ? (
                <GoldForm
                  trajectoryId={trajectoryId}
                  schemaKey={t.schemaKey}
                  target={targetInput(t)}
                  options={
                    schema.kind === "boolean" && !schema.options.length
                      ? [
                          { value: "true", label: "Yes" },
                          { value: "false", label: "No" },
                        ]
                      : schema.options
                  }
                  initial={t.gold?.value ?? (t.agreed ? t.labels[0]!.value : "")}
                  version={t.gold?.version ?? 0}
                />
              ) : null}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
