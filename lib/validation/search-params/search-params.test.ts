import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import {
  encodeCursor,
  trajectoryApiQuerySchema,
  trajectoryListQuerySchema,
  trajectoryListUrlSchema,
  trajectoryQueryToParams,
  paramsFromSearch,
  updateQuery,
  searchQuerySchema,
} from "./index.ts";

const messages = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ZodError) return e.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw e;
  }
  throw new Error("expected a validation error");
};

describe("strict API schema", () => {
  it("parses repeated parameters, ranges, multi-column sort and defaults", () => {
    const q = trajectoryListQuerySchema.parse({
      outcome: ["failed", "unknown"],
      runId: "r1",
      reward: "0.5..1",
      steps: "..40",
      duration: "60..",
      sort: "reward,stepCount",
      dir: "desc,asc",
    });
    expect(q).toMatchObject({
      outcome: ["failed", "unknown"],
      runId: ["r1"],
      reward: { min: 0.5, max: 1 },
      steps: { min: undefined, max: 40 },
      duration: { min: 60, max: undefined },
      sort: [
        { id: "reward", desc: true },
        { id: "stepCount", desc: false },
      ],
      page: 1,
      perPage: 25,
    });
    expect(trajectoryListQuerySchema.parse({}).sort).toEqual([{ id: "importedAt", desc: true }]);
    expect(trajectoryListQuerySchema.parse({ steps: "12" }).steps).toEqual({ min: 12, max: 12 });
  });

  it("takes the documented sort form (column.direction) as well as sort + dir, and they mean the same", () => {
    const inline = trajectoryListQuerySchema.parse({ sort: "stepCount.desc,reward.asc" });
    expect(inline.sort).toEqual([
      { id: "stepCount", desc: true },
      { id: "reward", desc: false },
    ]);
    expect(trajectoryListQuerySchema.parse({ sort: "stepCount,reward", dir: "desc,asc" }).sort).toEqual(inline.sort);
    expect(trajectoryListQuerySchema.parse({ sort: "reward.asc,stepCount" }).sort).toEqual([
      { id: "reward", desc: false },
      { id: "stepCount", desc: true },
    ]);
    expect(trajectoryListQuerySchema.parse({ dir: "asc" }).sort).toEqual([{ id: "importedAt", desc: false }]);
    // Page links keep their canonical sort + dir form.
    expect(trajectoryQueryToParams(inline).toString()).toBe("sort=stepCount%2Creward&dir=desc%2Casc");
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "stepCount.down" }))).toEqual([
      expect.stringMatching(/^sort: unknown column "stepCount\.down" .*e\.g\. stepCount\.desc,reward\.asc/),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "stepCount.desc", dir: "asc" }))).toEqual([
      expect.stringMatching(/^dir: cannot be combined with directions in sort/),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "reward.asc,reward.desc" }))).toEqual(["sort: names a column twice"]);
  });

  it("rejects an unknown column, a bad range and a huge page size with messages naming the parameter", () => {
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "secret" }))).toEqual([
      expect.stringMatching(/^sort: unknown column "secret" \(sortable: task, run, /),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ cols: "task,password" }))).toEqual([
      expect.stringMatching(/^cols: unknown column "password"/),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ reward: "1..0" }))).toEqual(["reward: bad range: min 1 is greater than max 0"]);
    expect(messages(() => trajectoryListQuerySchema.parse({ steps: "lots" }))).toEqual([
      expect.stringMatching(/^steps: bad range "lots": use min\.\.max/),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ steps: "1.5..3" }))).toEqual([
      "steps: bad range: bounds must be whole numbers",
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ perPage: "5000" }))).toEqual(["perPage: must be at most 100"]);
    expect(messages(() => trajectoryListQuerySchema.parse({ outcome: "great" }))).toEqual([
      "outcome.0: must be one of passed, failed, unknown",
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ dir: "up" }))).toEqual([expect.stringMatching(/^dir: must be asc or desc/)]);
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "reward", dir: "asc,desc" }))).toEqual([
      "dir: gives 2 directions for 1 sort column(s)",
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "reward,reward" }))).toEqual(["sort: names a column twice"]);
    expect(messages(() => trajectoryListQuerySchema.parse({ colour: "blue" }))).toEqual([expect.stringMatching(/colour/)]);
  });

  it("validates cursors and ties them to the sort they were made for", () => {
    const cursor = encodeCursor({ dir: "after", values: [12], id: "abc" });
    expect(trajectoryListQuerySchema.parse({ sort: "stepCount", cursor }).cursor).toEqual({ dir: "after", values: [12], id: "abc" });
    expect(messages(() => trajectoryListQuerySchema.parse({ cursor: "not-a-cursor" }))).toEqual([
      expect.stringMatching(/^cursor: is not a valid page cursor/),
    ]);
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "stepCount,reward", cursor }))).toEqual([
      "cursor: does not match the sort (it was made for another sort order)",
    ]);
    // Values of the wrong type never reach SQL (a text value for a numeric column would be a database error).
    const wrongType = encodeCursor({ dir: "after", values: ["twelve"], id: "abc" });
    expect(messages(() => trajectoryListQuerySchema.parse({ sort: "stepCount", cursor: wrongType }))).toEqual([
      "cursor: does not match the sort (it was made for another sort order)",
    ]);
    const badDate = encodeCursor({ dir: "after", values: ["yesterday"], id: "abc" });
    expect(messages(() => trajectoryListQuerySchema.parse({ cursor: badDate }))).toHaveLength(1);
    expect(trajectoryListUrlSchema.parse({ sort: "stepCount", cursor: wrongType }).cursor).toBeUndefined();
  });

  it("splits API-only parameters from the list query", () => {
    expect(trajectoryApiQuerySchema.parse({ select: "ids", outcome: "failed" })).toMatchObject({
      select: "ids",
      facets: false,
      query: { outcome: ["failed"] },
    });
    expect(messages(() => trajectoryApiQuerySchema.parse({ select: "rows" }))).toEqual([expect.stringMatching(/^select: must be "ids"/)]);
  });

  it("validates search parameters", () => {
    expect(searchQuerySchema.parse({ q: " pip install " })).toEqual({ q: "pip install", limit: 20 });
    expect(messages(() => searchQuerySchema.parse({}))).toEqual([expect.stringMatching(/^q: /)]);
    expect(messages(() => searchQuerySchema.parse({ q: "x", limit: "500" }))).toEqual(["limit: must be at most 50"]);
  });
});

describe("tolerant URL schema", () => {
  it("drops only what is bad and keeps the rest", () => {
    const q = trajectoryListUrlSchema.parse({
      page: "abc",
      perPage: "100000",
      sort: "nope",
      outcome: ["failed", "bogus"],
      reward: "x..y",
      q: "pip",
      utm_source: "mail",
    });
    expect(q).toMatchObject({ page: 1, perPage: 25, sort: [{ id: "importedAt", desc: true }], outcome: ["failed"], q: "pip" });
    expect(q.reward).toBeUndefined();
  });

  it("round-trips every field through the canonical URL", () => {
    const cursor = encodeCursor({ dir: "before", values: ["Fix the CSV parser", 0.5], id: "t9" });
    const raw = {
      q: "ModuleNotFoundError",
      runId: ["a", "b"],
      taskId: "t",
      model: "m",
      category: "c",
      outcome: "failed",
      error: ["none", "hang"],
      datasetId: "d",
      forks: "yes",
      attempt: "no",
      annotated: "me",
      reward: "0..0.5",
      steps: "5..",
      duration: "..600",
      sort: "task,reward",
      dir: "asc,desc",
      page: "3",
      perPage: "50",
      cursor,
      cols: "task,run,reward",
    };
    const q = trajectoryListUrlSchema.parse(raw);
    const again = trajectoryListUrlSchema.parse(paramsFromSearch(trajectoryQueryToParams(q)));
    expect(again).toEqual(q);
    expect(trajectoryQueryToParams(q).toString()).toBe(trajectoryQueryToParams(again).toString());
  });

  it("writes the default view as a bare URL and a sort as sort=…&dir=…", () => {
    expect(trajectoryQueryToParams(trajectoryListUrlSchema.parse({})).toString()).toBe("");
    const sorted = updateQuery(trajectoryListUrlSchema.parse({ page: "4" }), { sort: [{ id: "stepCount", desc: true }] });
    expect(trajectoryQueryToParams(sorted).toString()).toBe("sort=stepCount&dir=desc");
  });

  it("keeps the page when only paging or columns change", () => {
    const q = trajectoryListUrlSchema.parse({ page: "4", outcome: "failed" });
    expect(updateQuery(q, { cols: ["task"] }).page).toBe(4);
    expect(updateQuery(q, { outcome: [] }).page).toBe(1);
  });
});
