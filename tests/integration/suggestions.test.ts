// Suggestions (the detector's findings and imported judges' output) are stored apart from labels, decided
// per annotator (accept / change / reject), excluded from labels, agreement, the label facet and column and exports
// unless accepted, and give the detector's precision per category — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { isAppError } from "../../lib/errors.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";
import { getLabelHistory, listLabels } from "../../lib/services/annotation/list-labels.ts";
import { computeAgreement } from "../../lib/services/annotation/compute-agreement.ts";
import { importSuggestions } from "../../lib/services/annotation/suggestions/import-suggestions.ts";
import { listSuggestions } from "../../lib/services/annotation/suggestions/list-suggestions.ts";
import { decideSuggestion } from "../../lib/services/annotation/suggestions/decide-suggestion.ts";
import { getSuggestionPrecision } from "../../lib/services/annotation/suggestions/suggestion-precision.ts";
import { getTrajectoryFacets, listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";
import { createDataset } from "../../lib/services/curation/manage-datasets.ts";
import { openExport } from "../../lib/services/curation/export-dataset.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (isAppError(e)) return e.code;
    if ((e as Error).name === "ZodError") return "ZOD";
    throw e;
  }
}

const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);
const facetCounts = (f: { label: { value: string; count: number }[] } | null) =>
  Object.fromEntries((f?.label ?? []).map((o) => [o.value, o.count]));
type Pending = { key: string; value: string; stepStart: number };
async function firstThree(ctx: ServiceContext, trajectory: string): Promise<[Pending, Pending, Pending]> {
  const s = (await listSuggestions(ctx, { trajectory })).suggestions;
  expect(s.length).toBeGreaterThanOrEqual(3);
  return s.slice(0, 3).map((x) => ({ key: x.key, value: x.value, stepStart: x.stepStart! })) as [Pending, Pending, Pending];
}
const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe.each(PROVIDERS)("suggestions on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let alice: ServiceContext;
  let bob: ServiceContext;
  let rita: ServiceContext;
  /** Trajectories with at least three detected errors, and one with none used for imported suggestions. */
  let withErrors: { id: string; externalId: string | null }[];
  let judged: { id: string; stepCount: number };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 30, seed: 11 });
    // Start from no labels, so every label below is one these tests made.
    await t.db.annotationEvent.deleteMany({});
    await t.db.annotation.deleteMany({});
    await t.db.trajectory.updateMany({ data: { annotationCount: 0 } });
    alice = await t.as("alice", "annotator");
    bob = await t.as("bob", "annotator");
    rita = await t.as("rita", "researcher");
    const groups = await t.db.detectedError.groupBy({ by: ["trajectoryId"], _count: { _all: true } });
    const many = groups
      .filter((g) => g._count._all >= 3)
      .map((g) => g.trajectoryId)
      .sort();
    withErrors = await t.db.trajectory.findMany({
      where: { id: { in: many }, parentId: null },
      orderBy: { id: "asc" },
      select: { id: true, externalId: true },
    });
    judged = await t.db.trajectory.findFirstOrThrow({
      where: { parentId: null, stepCount: { gte: 6 }, id: { notIn: many } },
      orderBy: { id: "asc" },
      select: { id: true, stepCount: true },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("offers each detected error as a pending suggestion of its category on its step", async () => {
    expect(withErrors.length).toBeGreaterThanOrEqual(3);
    const traj = withErrors[0]!;
    const errors = await t.db.detectedError.findMany({ where: { trajectoryId: traj.id }, orderBy: { stepIndex: "asc" } });
    const { suggestions } = await listSuggestions(alice, { trajectory: traj.id });
    expect(suggestions.map((s) => [s.key, s.source, s.value, s.stepStart, s.stepEnd, s.targetKey])).toEqual(
      errors.map((e) => [
        `det:${e.id}`,
        "detector",
        e.category,
        e.stepIndex,
        e.stepIndex,
        `steps:${traj.id}:${e.stepIndex}-${e.stepIndex}`,
      ]),
    );
    expect(suggestions[0]!.message).toContain(errors[0]!.signal);
    // By external id too; an unknown trajectory is 404.
    if (traj.externalId) expect((await listSuggestions(alice, { trajectory: traj.externalId })).suggestions).toHaveLength(errors.length);
    expect(await codeOf(listSuggestions(alice, { trajectory: "nope" }))).toBe("NOT_FOUND");
  });

  it.skipIf(skip)("pages in list order after a key (decided or not), with the total and whether more follow", async () => {
    const traj = withErrors[1]!;
    const pia = await t.as("pia", "annotator");
    const all = (await listSuggestions(pia, { trajectory: traj.id })).suggestions;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await listSuggestions(pia, { trajectory: traj.id, limit: 2 });
    expect(first).toEqual({ suggestions: all.slice(0, 2), total: all.length, more: all.length > 2 });
    const rest = await listSuggestions(pia, { trajectory: traj.id, after: first.suggestions[1]!.key, limit: "500" });
    expect(rest).toEqual({ suggestions: all.slice(2), total: all.length, more: false });
    // A decided suggestion still marks the place: the page after it is the same, minus nothing (it was before).
    await decideSuggestion(pia, { suggestion: all[1]!.key, decision: "rejected" });
    expect((await listSuggestions(pia, { trajectory: traj.id, after: all[1]!.key, limit: 500 })).suggestions).toEqual(all.slice(2));
    expect((await listSuggestions(pia, { trajectory: traj.id, limit: 500 })).total).toBe(all.length - 1);
    expect(await codeOf(listSuggestions(pia, { trajectory: traj.id, after: "det:nope", limit: 5 }))).toBe("INVALID_INPUT");
  });

  it.skipIf(skip)(
    "accept creates a real label (history, count), change creates the annotator's, reject records only the decision",
    async () => {
      const traj = withErrors[0]!;
      const [s1, s2, s3] = await firstThree(alice, traj.id);
      const accepted = await decideSuggestion(alice, { suggestion: s1.key, decision: "accepted" });
      expect(accepted.decision).toBe("accepted");
      expect(accepted.label).toMatchObject({
        annotatorName: "alice",
        schemaKey: "error-category",
        targetType: "step_range",
        stepStart: s1.stepStart,
        stepEnd: s1.stepStart,
        value: s1.value,
        version: 1,
      });
      const other = s2.value === "hang" ? "timeout" : "hang";
      const changed = await decideSuggestion(alice, { suggestion: s2.key, decision: "changed", value: other });
      expect(changed).toMatchObject({ decision: "changed", label: { value: other, stepStart: s2.stepStart } });
      const rejected = await decideSuggestion(alice, { suggestion: s3.key, decision: "rejected" });
      expect(rejected).toEqual({ suggestion: s3.key, decision: "rejected", label: null });

      const labels = (await listLabels(alice, { trajectory: traj.id })).labels;
      expect(labels.map((l) => [l.stepStart, l.value]).sort()).toEqual(
        [
          [s1.stepStart, s1.value],
          [s2.stepStart, other],
        ].sort(),
      );
      const stored = await t.db.trajectory.findUniqueOrThrow({ where: { id: traj.id }, select: { annotationCount: true } });
      expect(stored.annotationCount).toBe(2);
      expect((await getLabelHistory(alice, traj.id)).filter((e) => e.action === "create")).toHaveLength(2);
      const decisions = await t.db.suggestionDecision.findMany({ where: { annotatorId: alice.actor.id }, orderBy: { createdAt: "asc" } });
      expect(decisions.map((d) => [d.suggestionKey, d.decision, d.value, d.annotationId])).toEqual([
        [s1.key, "accepted", s1.value, accepted.label!.id],
        [s2.key, "changed", other, changed.label!.id],
        [s3.key, "rejected", null, null],
      ]);

      // Decided suggestions are no longer offered to alice; bob still sees all of them (decisions are per annotator).
      const pendingAlice = (await listSuggestions(alice, { trajectory: traj.id })).suggestions.map((s) => s.key);
      expect(pendingAlice).not.toContain(s1.key);
      expect(pendingAlice).not.toContain(s3.key);
      expect((await listSuggestions(bob, { trajectory: traj.id })).suggestions.map((s) => s.key)).toEqual(
        expect.arrayContaining([s1.key, s2.key, s3.key]),
      );
      // Bob does not see alice's labels either (blind).
      expect((await listLabels(bob, { trajectory: traj.id })).labels).toEqual([]);
      const audit = await listAuditEvents(t.ctx, { action: "suggestion.decide", limit: 10 });
      expect(audit.length).toBeGreaterThanOrEqual(3);
    },
  );

  it.skipIf(skip)("refuses a second decision (409), a bad change value (400), and keeps label and decision together", async () => {
    const traj = withErrors[1]!;
    const [s1, s2, s3] = await firstThree(alice, traj.id);
    await decideSuggestion(alice, { suggestion: s1.key, decision: "rejected" });
    expect(await codeOf(decideSuggestion(alice, { suggestion: s1.key, decision: "accepted" }))).toBe("CONFLICT");
    expect(await codeOf(decideSuggestion(alice, { suggestion: s2.key, decision: "changed", value: "not-a-category" }))).toBe(
      "INVALID_INPUT",
    );
    expect(await codeOf(decideSuggestion(alice, { suggestion: s2.key, decision: "changed" }))).toBe("ZOD");
    expect(await codeOf(decideSuggestion(alice, { suggestion: "det:doesnotexist", decision: "accepted" }))).toBe("NOT_FOUND");
    // Alice labelled s3's step herself already: accepting is the label conflict (409), and no decision is left behind.
    await createLabel(alice, {
      trajectory: traj.id,
      schema: "error-category",
      value: "timeout",
      target: { steps: [s3.stepStart, s3.stepStart] },
    });
    expect(await codeOf(decideSuggestion(alice, { suggestion: s3.key, decision: "accepted" }))).toBe("CONFLICT");
    expect(await t.db.suggestionDecision.count({ where: { suggestionKey: s3.key } })).toBe(0);
    // A change to the suggested value counts as an acceptance.
    const same = await decideSuggestion(alice, { suggestion: s2.key, decision: "changed", value: s2.value });
    expect(same.decision).toBe("accepted");
    // Viewers cannot decide.
    const viewer = await t.as("vera", "viewer");
    expect(await codeOf(decideSuggestion(viewer, { suggestion: s3.key, decision: "rejected" }))).toBe("FORBIDDEN");
  });

  const judgeLines = () => [
    {
      trajectory: judged.id,
      schema: "error-category",
      value: "timeout",
      annotator: "llm-judge-v1",
      target: { steps: [1, 2] },
      comment: "sleeps until killed",
    },
    { trajectory: judged.id, schema: "error-category", value: "command-error", annotator: "llm-judge-v1" },
    { trajectory: judged.id, schema: "error-category", value: "hang", annotator: "llm-judge-v2", target: { steps: [1, 2] } },
  ];

  it.skipIf(skip)("imports suggestions from JSONL (errors name the line, nothing written), idempotently, as imported:<name>", async () => {
    const bad =
      lines(judgeLines()) +
      "\n" +
      JSON.stringify({ trajectory: judged.id, schema: "error-category", value: "nope", annotator: "llm-judge-v1" }) +
      "\n{oops\n";
    const refused = await importSuggestions(rita, bad, { file: "judge.jsonl" });
    expect(refused.created).toBe(0);
    expect(refused.issues.map((i) => [i.file, i.line, i.field])).toEqual([
      ["judge.jsonl", 5, "value"],
      ["judge.jsonl", 6, "(line)"],
    ]);
    expect(await t.db.suggestion.count()).toBe(0);

    const first = await importSuggestions(rita, lines(judgeLines()), { file: "judge.jsonl" });
    expect(first).toMatchObject({
      lines: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      sources: ["imported:llm-judge-v1", "imported:llm-judge-v2"],
      issues: [],
    });
    const again = await importSuggestions(rita, lines(judgeLines()), { file: "judge.jsonl" });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await t.db.suggestion.count()).toBe(3);
    // A changed value updates the suggestion in place.
    const edited = judgeLines();
    edited[1]!.value = "hang";
    expect(await importSuggestions(rita, lines(edited))).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    // No labels, no annotators named after the sources.
    expect(await t.db.annotation.count({ where: { trajectoryId: judged.id } })).toBe(0);
    expect(await t.db.user.count({ where: { name: { startsWith: "llm-judge" } } })).toBe(0);
    // Annotators cannot import suggestions.
    expect(await codeOf(importSuggestions(alice, lines(judgeLines())))).toBe("FORBIDDEN");

    const pending = (await listSuggestions(alice, { trajectory: judged.id })).suggestions;
    expect(pending.map((s) => [s.source, s.targetType, s.value])).toEqual([
      ["imported:llm-judge-v1", "trajectory", "hang"],
      ["imported:llm-judge-v1", "step_range", "timeout"],
      ["imported:llm-judge-v2", "step_range", "hang"],
    ]);
    expect(pending[1]!.message).toBe("sleeps until killed");
  });

  it.skipIf(skip)("keeps suggestions out of labels, agreement, the label facet and column, and exports until accepted", async () => {
    // judged has three suggestions and (so far) no labels; bob and alice have not decided any of them.
    expect((await listLabels(rita, { trajectory: judged.id })).labels).toEqual([]);
    const agreementBefore = await computeAgreement(t.ctx, { schema: "error-category" });
    expect(agreementBefore.disagreements.some((d) => d.trajectoryId === judged.id)).toBe(false);
    const page = await listTrajectories(rita, q({ perPage: 100, steps: `${judged.stepCount}..${judged.stepCount}` }));
    expect(page.rows.find((r) => r.id === judged.id)?.labels).toEqual([]);
    // The facet counts exactly what the Annotation table holds (labels of earlier tests), nothing of the suggestions.
    const fromLabels = async () => {
      const rows = await t.db.annotation.findMany({
        where: { schema: { key: "error-category" } },
        distinct: ["trajectoryId", "value"],
        select: { value: true },
      });
      const out: Record<string, number> = {};
      for (const r of rows) out[r.value] = (out[r.value] ?? 0) + 1;
      return out;
    };
    const facetBefore = facetCounts(await getTrajectoryFacets(rita, q({})));
    expect(facetBefore).toEqual(await fromLabels());
    expect((await listTrajectories(rita, q({ label: "hang", perPage: 100 }))).rows.map((r) => r.id)).not.toContain(judged.id);
    await createDataset(t.ctx, { name: "judged-only", rules: { source: "selection", ids: [judged.id] } });
    const exportLabels = async () => {
      const opened = await openExport(t.ctx, { name: "judged-only", format: "labels-jsonl" });
      let text = "";
      for await (const piece of opened.pieces()) text += piece;
      return text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { annotator: string; value: string; stepStart: number | null });
    };
    expect(await exportLabels()).toEqual([]);

    // Two annotators decide the same judge suggestion: then it is an ordinary label of each, everywhere.
    const step12 = (await listSuggestions(alice, { trajectory: judged.id })).suggestions.find(
      (s) => s.source === "imported:llm-judge-v1" && s.targetType === "step_range",
    )!;
    await decideSuggestion(alice, { suggestion: step12.key, decision: "accepted" });
    await decideSuggestion(bob, { suggestion: step12.key, decision: "changed", value: "hang" });
    expect((await listLabels(rita, { trajectory: judged.id })).labels.map((l) => [l.annotatorName, l.value]).sort()).toEqual([
      ["alice", "timeout"],
      ["bob", "hang"],
    ]);
    const agreementAfter = await computeAgreement(t.ctx, { schema: "error-category" });
    expect(agreementAfter.disagreements.find((d) => d.trajectoryId === judged.id)?.labels).toEqual([
      { annotator: "alice", value: "timeout" },
      { annotator: "bob", value: "hang" },
    ]);
    expect((await listTrajectories(rita, q({ label: "hang", perPage: 100 }))).rows.map((r) => r.id)).toContain(judged.id);
    const facetAfter = facetCounts(await getTrajectoryFacets(rita, q({})));
    expect(facetAfter).toEqual(await fromLabels());
    expect(facetAfter.hang).toBe((facetBefore.hang ?? 0) + 1);
    expect((await exportLabels()).map((r) => [r.annotator, r.value, r.stepStart]).sort()).toEqual([
      ["alice", "timeout", 1],
      ["bob", "hang", 1],
    ]);
  });

  it.skipIf(skip)("gives the detector's precision per category from the decisions (known data)", async () => {
    // Fresh decisions only: clear what earlier tests decided, then decide on a third trajectory's suggestions.
    await t.db.suggestionDecision.deleteMany({});
    const traj = withErrors[2]!;
    const [a, b, c] = [await t.as("p1", "annotator"), await t.as("p2", "annotator"), await t.as("p3", "annotator")];
    const sugs = (await listSuggestions(a, { trajectory: traj.id })).suggestions.slice(0, 3);
    const expected = new Map<string, { accepted: number; changed: number; rejected: number }>();
    const plan: [ServiceContext, "accepted" | "changed" | "rejected"][] = [
      [a, "accepted"],
      [b, "rejected"],
      [c, "changed"],
    ];
    for (const s of sugs) {
      for (const [who, decision] of plan) {
        const value = decision === "changed" ? (s.value === "task-invalid" ? "hang" : "task-invalid") : undefined;
        await decideSuggestion(who, { suggestion: s.key, decision, ...(value ? { value } : {}) });
        const e = expected.get(s.value) ?? { accepted: 0, changed: 0, rejected: 0 };
        e[decision]++;
        expected.set(s.value, e);
      }
    }
    // An imported source's decisions do not count for the detector.
    const judge = (await listSuggestions(a, { trajectory: judged.id })).suggestions[0]!;
    await decideSuggestion(a, { suggestion: judge.key, decision: "rejected" });

    const r = await getSuggestionPrecision(rita, {});
    expect(r.source).toBe("detector");
    expect(
      Object.fromEntries(r.categories.map((c) => [c.category, { accepted: c.accepted, changed: c.changed, rejected: c.rejected }])),
    ).toEqual(Object.fromEntries(expected));
    for (const row of r.categories) {
      expect(row.decided).toBe(row.accepted + row.changed + row.rejected);
      expect(row.precision).toBeCloseTo(row.accepted / row.decided, 10);
      expect(row.ci!.lo).toBeLessThanOrEqual(row.precision!);
      expect(row.ci!.hi).toBeGreaterThanOrEqual(row.precision!);
    }
    expect(r.overall).toMatchObject({ decided: 9, accepted: 3, changed: 3, rejected: 3 });
    expect(r.overall.precision).toBeCloseTo(1 / 3, 10);
    expect(r.sources).toEqual(["detector", "imported:llm-judge-v1", "imported:llm-judge-v2"]);
    const judgeFigures = await getSuggestionPrecision(rita, { source: judge.source });
    expect(judgeFigures.overall).toMatchObject({ decided: 1, rejected: 1, precision: 0 });
    expect(await codeOf(getSuggestionPrecision(rita, { source: "judge" }))).toBe("ZOD");
  });
});
