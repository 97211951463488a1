// `reterm analytics recovery --json` prints exactly the object GET /api/v1/analytics/recovery returns (the service's
// categories and overall), and --run takes a run name. SQLite only: the CLI adds no SQL of its own.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-db.ts";
import { seedAnalyticsFixture, type AnalyticsFixture } from "../../helpers/analytics-fixture.ts";
import { getRecoveryAnalytics } from "../../../lib/services/analytics/get-recovery-analytics.ts";
import { EMPTY_ANALYTICS_FILTER } from "../../../lib/validation/analytics-params.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");

describe("reterm analytics recovery", () => {
  let t: TestDatabase;
  let fx: AnalyticsFixture;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    fx = await seedAnalyticsFixture(t.db, t.ctx.actor.id);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const cli = (...args: string[]) => run(path.join(root, "node_modules/.bin/tsx"), ["cli/reterm.ts", "analytics", ...args], { cwd: root, env: { ...process.env, DATABASE_URL: t.config.url } });

  it("prints the API's object with --json, filtered by run name", async () => {
    const { stdout } = await cli("recovery", "--run", "m1-base-100", "--json");
    const expected = await getRecoveryAnalytics(t.ctx, { ...EMPTY_ANALYTICS_FILTER, runId: [fx.runs.A] });
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify({ categories: expected.categories, overall: expected.overall })));
    expect(Object.keys(JSON.parse(stdout).categories[0])).toEqual(expect.arrayContaining(["category", "forkPoints", "attempts", "successfulAttempts", "recoveredForkPoints", "recoveryRate", "recoveryAtK"]));
  }, 60_000);

  it("names an unknown run and exits non-zero", async () => {
    await expect(cli("recovery", "--run", "nope")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no run named "nope"') });
  }, 60_000);
});
