// Annotation progress and agreement over time: labels per period and schema and queue items completed
// per period (counted in the database), and agreement per schema per period, computed with the same functions as
// the queue page (lib/domain/annotation/agreement.ts) over the label rows of targets at least two annotators
// labelled. A target belongs to the period of its latest label — when its set of ratings was last completed.
// Agreement shows how people's labels compare, a reviewer's view: without annotation:adjudicate it is left out.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { can } from "../../domain/authz.ts";
import { agreementReport, type Level, type RatedItem } from "../../domain/annotation/agreement.ts";
import { optionOrder } from "../../domain/annotation/label-schema.ts";
import { listLabelSchemas } from "../../db/repositories/annotation/schemas.ts";
import {
  countCompletedItemsByPeriod,
  countLabelsByPeriod,
  loadPairedLabels,
  type PairedLabel,
  type Period,
} from "../../db/repositories/analytics/annotation-activity.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { resolveDrillRuns } from "./drill-runs.ts";

export type { Period };
export const PERIODS = ["day", "week"] as const;
export const periodSchema = z.enum(PERIODS, { message: "must be day or week" }).default("week");

export interface AgreementFigures {
  /** Targets at least two annotators labelled. */
  items: number;
  annotators: number;
  cohenKappa: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
}

export interface SchemaAgreementOverTime {
  schema: string;
  name: string;
  level: Level;
  overall: AgreementFigures;
  windows: (AgreementFigures & { period: string })[];
}

export interface AnnotationAnalytics {
  filter: AnalyticsFilter;
  period: Period;
  /** Every period with a label or a completed item, ascending ("YYYY-MM-DD", the period's first day, UTC). */
  periods: string[];
  labels: { period: string; schema: string; labels: number; trajectories: number }[];
  completed: { period: string; queueId: string; queue: string; items: number }[];
  /** null: the viewer may not compare annotators' labels (annotation:adjudicate). */
  agreement: SchemaAgreementOverTime[] | null;
  drillRunIds: string[] | null;
}

function figures(items: RatedItem[], level: Level, order: string[]): AgreementFigures {
  const r = agreementReport(items, level, order);
  return {
    items: r.items,
    annotators: r.annotators,
    cohenKappa: r.cohenKappa,
    fleissKappa: r.fleissKappa,
    krippendorffAlpha: r.krippendorffAlpha,
  };
}

function agreementOverTime(
  rows: PairedLabel[],
  schema: { key: string; name: string; kind: string; options: Parameters<typeof optionOrder>[0]["options"] },
): SchemaAgreementOverTime {
  const targets = new Map<string, { ratings: Map<string, string>; period: string }>();
  for (const r of rows) {
    const t = targets.get(r.targetKey) ?? { ratings: new Map(), period: r.period };
    t.ratings.set(r.annotatorId, r.value);
    if (r.period > t.period) t.period = r.period;
    targets.set(r.targetKey, t);
  }
  const level: Level = schema.kind === "ordinal" ? "ordinal" : "nominal";
  const order = schema.kind === "boolean" ? ["true", "false"] : optionOrder(schema);
  const all: RatedItem[] = [...targets].map(([item, t]) => ({ item, ratings: t.ratings }));
  const byPeriod = new Map<string, RatedItem[]>();
  for (const [item, t] of targets) byPeriod.set(t.period, [...(byPeriod.get(t.period) ?? []), { item, ratings: t.ratings }]);
  return {
    schema: schema.key,
    name: schema.name,
    level,
    overall: figures(all, level, order),
    windows: [...byPeriod].sort(([a], [b]) => a.localeCompare(b)).map(([period, items]) => ({ period, ...figures(items, level, order) })),
  };
}

export async function getAnnotationAnalytics(
  ctx: ServiceContext,
  filter: AnalyticsFilter,
  period: Period = "week",
): Promise<AnnotationAnalytics> {
  authorize(ctx, "trajectory:read");
  const showAgreement = can(ctx.actor, "annotation:adjudicate");
  const schemas = await listLabelSchemas(ctx.db);
  // Agreement applies to categorical, ordinal and boolean schemas (as the queue page).
  const rated = schemas.filter((s) => s.kind === "categorical" || s.kind === "ordinal" || s.kind === "boolean");
  const [labels, completed, paired, drillRunIds] = await Promise.all([
    countLabelsByPeriod(ctx.db, filter, period),
    countCompletedItemsByPeriod(ctx.db, filter, period),
    showAgreement
      ? loadPairedLabels(
          ctx.db,
          filter,
          rated.map((s) => s.id),
          period,
        )
      : Promise.resolve([]),
    resolveDrillRuns(ctx, filter),
  ]);
  const agreement = showAgreement
    ? rated
        .map((s) => ({ s, rows: paired.filter((r) => r.schemaId === s.id) }))
        .filter((x) => x.rows.length)
        .map(({ s, rows }) => agreementOverTime(rows, s))
    : null;
  const periods = [...new Set([...labels.map((l) => l.period), ...completed.map((c) => c.period)])].sort();
  return {
    filter,
    period,
    periods,
    labels: labels.map((l) => ({ period: l.period, schema: l.schemaKey, labels: l.labels, trajectories: l.trajectories })),
    completed: completed.map((c) => ({ period: c.period, queueId: c.queueId, queue: c.queueName, items: c.items })),
    agreement,
    drillRunIds,
  };
}
