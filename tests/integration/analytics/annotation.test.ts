// Annotation progress and agreement over time on SQLite and PostgreSQL, with hand-computed answers: labels per day and
// per ISO week and schema, queue items completed per period, Cohen's κ / Krippendorff's α per week (a target counts
// in the week of its latest label), the viewer's view without agreement, and label drill-downs that match exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../helpers/test-db.ts";
import { seedAnalyticsFixture, type AnalyticsFixture } from "../../helpers/analytics-fixture.ts";
import { getAnnotationAnalytics } from "../../../lib/services/analytics/get-annotation-analytics.ts";
import { listTrajectories } from "../../../lib/services/browse/browse-trajectories.ts";
import { EMPTY_ANALYTICS_FILTER } from "../../../lib/validation/analytics-params.ts";
import { labelledHref } from "../../../lib/validation/analytics-drill-down.ts";
import { paramsFromSearch, trajectoryListQuerySchema } from "../../../lib/validation/search-params/index.ts";

// The fixture also labels one fork point (error-category, today): these tests read the "verdict" schema's rows.
const verdict = <T extends { schema: string }>(rows: T[]) => rows.filter((r) => r.schema === "verdict");
const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, "0")}:00:00Z`);

describe.each(PROVIDERS)("annotation analytics on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let fx: AnalyticsFixture;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    fx = await seedAnalyticsFixture(t.db, t.ctx.actor.id);
    const traj = async (i: number) => (await t.db.trajectory.findUniqueOrThrow({ where: { contentHash: `fixture-${i}` } })).id;
    const T = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(traj));
    const user = (name: string) => t.db.user.create({ data: { name, role: "annotator" } }).then((u) => u.id);
    const [u1, u2, u3] = [await user("ann-1"), await user("ann-2"), await user("ann-3")];
    const schema = await t.db.labelSchema.create({
      data: {
        key: "verdict",
        name: "Verdict",
        kind: "categorical",
        targets: JSON.stringify(["trajectory"]),
        options: JSON.stringify([
          { value: "good", label: "Good" },
          { value: "bad", label: "Bad" },
        ]),
      },
    });
    const label = (who: string, ti: number, value: string, day: string) =>
      t.db.annotation.create({
        data: {
          schemaId: schema.id,
          annotatorId: who,
          targetType: "trajectory",
          targetKey: `traj:${T[ti]}`,
          trajectoryId: T[ti]!,
          value,
          createdAt: at(day),
        },
      });
    // Week of 2026-11-02: T0..T3 by ann-1 and ann-2 (Tue 3rd and Wed 4th), T6 by ann-1 alone.
    for (const [ti, v1, v2, day] of [
      [0, "good", "good", "2026-11-03"],
      [1, "bad", "bad", "2026-11-03"],
      [2, "good", "bad", "2026-11-04"],
      [3, "bad", "bad", "2026-11-04"],
    ] as const) {
      await label(u1, ti, v1, day);
      await label(u2, ti, v2, day);
    }
    await label(u1, 6, "bad", "2026-11-03");
    // Week of 2026-11-09: T4, T5 by both (10th); ann-3 labels T0 on the 11th, which moves T0 into this week.
    for (const [ti, v] of [
      [4, "good"],
      [5, "bad"],
    ] as const) {
      await label(u1, ti, v, "2026-11-10");
      await label(u2, ti, v, "2026-11-10");
    }
    await label(u3, 0, "good", "2026-11-11");
    // A queue of two labels per item: T0 completes on the 3rd, T1 on the 10th, T2 never (one place done).
    const q = await t.db.annotationQueue.create({
      data: {
        name: "verdicts",
        filter: "{}",
        schemaKeys: JSON.stringify(["verdict"]),
        labelsPerItem: 2,
        itemCount: 3,
        createdById: t.ctx.actor.id,
      },
    });
    const item = (ti: number, position: number) => t.db.queueItem.create({ data: { queueId: q.id, trajectoryId: T[ti]!, position } });
    const [i0, i1, i2] = [await item(0, 0), await item(1, 1), await item(2, 2)];
    const slot = (itemId: string, s: number, who: string, day: string, status = "done") =>
      t.db.queueSlot.create({ data: { queueId: q.id, itemId, slot: s, annotatorId: who, status, updatedAt: at(day) } });
    await slot(i0.id, 0, u1, "2026-11-03");
    await slot(i0.id, 1, u2, "2026-11-03");
    await slot(i1.id, 0, u1, "2026-11-03");
    await slot(i1.id, 1, u2, "2026-11-10");
    await slot(i2.id, 0, u1, "2026-11-04");
    await slot(i2.id, 1, u2, "2026-11-04", "reserved");
  });
  afterAll(async () => {
    await t?.drop();
  });

  const rowsAt = async (href: string) => {
    const q = trajectoryListQuerySchema.parse({ ...paramsFromSearch(new URL(href, "http://x").searchParams), perPage: 100 });
    return (await listTrajectories(t.ctx, q)).total;
  };

  it.skipIf(skip)("counts labels per week and per day by schema in the database", async () => {
    const w = await getAnnotationAnalytics(t.ctx, EMPTY_ANALYTICS_FILTER, "week");
    expect(w.periods.slice(0, 2)).toEqual(["2026-11-02", "2026-11-09"]);
    expect(verdict(w.labels)).toEqual([
      { period: "2026-11-02", schema: "verdict", labels: 9, trajectories: 5 },
      { period: "2026-11-09", schema: "verdict", labels: 5, trajectories: 3 },
    ]);
    const d = await getAnnotationAnalytics(t.ctx, EMPTY_ANALYTICS_FILTER, "day");
    expect(verdict(d.labels).map((l) => [l.period, l.labels])).toEqual([
      ["2026-11-03", 5],
      ["2026-11-04", 4],
      ["2026-11-10", 4],
      ["2026-11-11", 1],
    ]);
  });

  it.skipIf(skip)("counts queue items when their last required place is done", async () => {
    const w = await getAnnotationAnalytics(t.ctx, EMPTY_ANALYTICS_FILTER, "week");
    expect(w.completed.map((c) => [c.period, c.queue, c.items])).toEqual([
      ["2026-11-02", "verdicts", 1],
      ["2026-11-09", "verdicts", 1],
    ]);
  });

  it.skipIf(skip)("computes agreement per week over targets two or more annotators labelled", async () => {
    const w = await getAnnotationAnalytics(t.ctx, EMPTY_ANALYTICS_FILTER, "week");
    const a = w.agreement!.find((x) => x.schema === "verdict")!;
    expect(a).toMatchObject({ schema: "verdict", level: "nominal" });
    // All six paired targets (T6 has one label): o_gg = 5, o_bb = 6, o_gb = o_bg = 1 → α = 1 − 12·2/84 = 5/7.
    expect(a.overall).toMatchObject({ items: 6, annotators: 3, cohenKappa: null });
    expect(a.overall.krippendorffAlpha).toBeCloseTo(5 / 7, 12);
    // Week 1: T1 (bad, bad), T2 (good, bad), T3 (bad, bad) — p_o = 2/3 = p_e, so κ = 0 and α = 0.
    expect(a.windows[0]).toMatchObject({ period: "2026-11-02", items: 3, annotators: 2 });
    expect(a.windows[0]!.cohenKappa).toBeCloseTo(0, 12);
    expect(a.windows[0]!.krippendorffAlpha).toBeCloseTo(0, 12);
    // Week 2: T0 (3 × good, latest label on the 11th), T4, T5 — full agreement; Fleiss needs equal rating counts.
    expect(a.windows[1]).toMatchObject({
      period: "2026-11-09",
      items: 3,
      annotators: 3,
      cohenKappa: null,
      fleissKappa: null,
      krippendorffAlpha: 1,
    });
  });

  it.skipIf(skip)("applies the analytics filter and leaves agreement out for a viewer", async () => {
    const a = await getAnnotationAnalytics(t.ctx, { ...EMPTY_ANALYTICS_FILTER, runId: [fx.runs.A] }, "week");
    expect(verdict(a.labels)[0]).toEqual({ period: "2026-11-02", schema: "verdict", labels: 8, trajectories: 4 });
    expect(a.drillRunIds).toEqual([fx.runs.A]);
    const viewer = await t.as("viewer-annotation-analytics", "viewer");
    const v = await getAnnotationAnalytics(viewer, EMPTY_ANALYTICS_FILTER, "week");
    expect(v.agreement).toBeNull();
    expect(verdict(v.labels)).toHaveLength(2);
  });

  it.skipIf(skip)("drills down from each period to exactly the labelled trajectories", async () => {
    for (const period of ["day", "week"] as const) {
      for (const filter of [EMPTY_ANALYTICS_FILTER, { ...EMPTY_ANALYTICS_FILTER, runId: [fx.runs.A] }]) {
        const r = await getAnnotationAnalytics(t.ctx, filter, period);
        expect(r.labels.length).toBeGreaterThan(0);
        for (const l of r.labels) expect(await rowsAt(labelledHref(r, l.schema, l.period, period))).toBe(l.trajectories);
      }
    }
    expect(await rowsAt("/trajectories?labelSchema=verdict&labelledAt=2026-11-10..2026-11-12")).toBe(3);
  });
});
