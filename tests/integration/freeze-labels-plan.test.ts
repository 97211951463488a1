// Freezing writes each item's captured labels in batches of 5,000 (lib/db/repositories/datasets/datasets.ts). On
// SQLite the statement must look items up by (version, position) for each pair of the batch: joined to json_each
// directly, SQLite walked all of the version's items and scanned the whole batch for each one, and freezing a
// labelled dataset of 10^5 items did not finish. The plan is checked, not a time (speed is the benchmark's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { SQLITE_SET_CAPTURED_LABELS } from "../../lib/db/repositories/datasets/datasets.ts";

describe("captured labels on SQLite", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("walk the batch and look each item up by its version and position", async () => {
    const plan = await t.db.$queryRawUnsafe<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN ${SQLITE_SET_CAPTURED_LABELS}`,
      JSON.stringify([[0, "[]"]]),
      "v",
    );
    const details = plan.map((r) => r.detail);
    expect(
      details.some((d) => /^SEARCH DatasetItem USING .*\(datasetVersionId=\? AND position=\?\)/.test(d)),
      details.join(" | "),
    ).toBe(true);
    // The item table is never the outer loop with the batch scanned inside it.
    expect(
      details.some((d) => /^SEARCH DatasetItem USING .*\(datasetVersionId=\?\)$/.test(d)),
      details.join(" | "),
    ).toBe(false);
  });
});
