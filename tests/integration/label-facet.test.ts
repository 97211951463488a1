// The trajectory browser's Label facet, filter and column (error-category labels, joined by trajectory),
// with blind mode held: an annotator counts, filters and sees only their own labels — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";
import { getTrajectoryFacets, listTrajectories, selectMatchingTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryApiQuerySchema, trajectoryListQuerySchema, trajectoryListUrlSchema } from "../../lib/validation/search-params/index.ts";

const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);
const facetCounts = (f: { label: { value: string; count: number }[] } | null) =>
  Object.fromEntries((f?.label ?? []).map((o) => [o.value, o.count]));

describe.each(PROVIDERS)("label facet and column on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let alice: ServiceContext;
  let bob: ServiceContext;
  let rita: ServiceContext;
  let ids: string[];

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 20, seed: 9 });
    // Start from no labels, so the expected counts below are the whole truth.
    await t.db.annotationEvent.deleteMany({});
    await t.db.annotation.deleteMany({});
    alice = await t.as("alice", "annotator");
    bob = await t.as("bob", "annotator");
    rita = await t.as("rita", "researcher");
    ids = (
      await t.db.trajectory.findMany({
        where: { parentId: null, stepCount: { gte: 6 } },
        orderBy: { id: "asc" },
        take: 3,
        select: { id: true },
      })
    ).map((r) => r.id);
    const [a, b, c] = ids as [string, string, string];
    // a: alice timeout on steps 1-3 and command-error on the whole trajectory; b: bob timeout; c: alice + bob command-error
    await createLabel(alice, { trajectory: a, schema: "error-category", value: "timeout", target: { steps: [1, 3] } });
    await createLabel(alice, { trajectory: a, schema: "error-category", value: "command-error" });
    await createLabel(bob, { trajectory: b, schema: "error-category", value: "timeout", target: { steps: [2, 2] } });
    await createLabel(alice, { trajectory: c, schema: "error-category", value: "command-error" });
    await createLabel(bob, { trajectory: c, schema: "error-category", value: "command-error", target: { steps: [0, 1] } });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("counts trajectories per label value for everyone's labels (researcher)", async () => {
    expect(facetCounts(await getTrajectoryFacets(rita, q({})))).toEqual({ timeout: 2, "command-error": 2 });
    // The facet leaves its own filter out, the list applies it.
    expect(facetCounts(await getTrajectoryFacets(rita, q({ label: "timeout" })))).toEqual({ timeout: 2, "command-error": 2 });
    const timeout = await listTrajectories(rita, q({ label: "timeout", perPage: 100 }));
    expect(timeout.rows.map((r) => r.id).sort()).toEqual([ids[0], ids[1]].sort());
    const either = await selectMatchingTrajectories(rita, q({ label: ["timeout", "command-error"] }));
    expect(either.ids.sort()).toEqual([...ids].sort());
    // Other filters narrow the label counts.
    expect(facetCounts(await getTrajectoryFacets(rita, q({ annotated: "nobody" })))).toEqual({});
  });

  it.skipIf(skip)("shows the label values of each row, sorted and distinct", async () => {
    const page = await listTrajectories(rita, q({ label: ["timeout", "command-error"], perPage: 100 }));
    const byId = new Map(page.rows.map((r) => [r.id, r.labels]));
    expect(byId.get(ids[0]!)).toEqual(["command-error", "timeout"]);
    expect(byId.get(ids[1]!)).toEqual(["timeout"]);
    expect(byId.get(ids[2]!)).toEqual(["command-error"]);
    const unlabelled = await listTrajectories(rita, q({ annotated: "nobody", perPage: 5 }));
    expect(unlabelled.rows.length).toBeGreaterThan(0);
    expect(unlabelled.rows.every((r) => r.labels.length === 0)).toBe(true);
  });

  it.skipIf(skip)("holds blind mode: an annotator's facet, filter and column see only their own labels", async () => {
    expect(facetCounts(await getTrajectoryFacets(alice, q({})))).toEqual({ timeout: 1, "command-error": 2 });
    expect(facetCounts(await getTrajectoryFacets(bob, q({})))).toEqual({ timeout: 1, "command-error": 1 });
    const bobTimeout = await listTrajectories(bob, q({ label: "timeout", perPage: 100 }));
    expect(bobTimeout.rows.map((r) => r.id)).toEqual([ids[1]]);
    const bobRows = await listTrajectories(bob, q({ label: "command-error", perPage: 100 }));
    expect(bobRows.rows.map((r) => [r.id, r.labels])).toEqual([[ids[2], ["command-error"]]]);
    const aliceA = (await listTrajectories(alice, q({ label: "timeout", perPage: 100 }))).rows;
    expect(aliceA.map((r) => [r.id, r.labels])).toEqual([[ids[0], ["command-error", "timeout"]]]);
  });

  it.skipIf(skip)("takes label in the strict API schema and the tolerant URL schema", () => {
    expect(trajectoryApiQuerySchema.parse({ label: ["timeout", "command-error"] }).query.label).toEqual(["timeout", "command-error"]);
    expect(trajectoryApiQuerySchema.safeParse({ label: "" }).success).toBe(false);
    expect(trajectoryListUrlSchema.parse({ label: ["timeout", ""] }).label).toEqual(["timeout"]);
  });
});
