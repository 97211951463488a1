// `reterm analytics recovery --json` prints exactly the object GET /api/v1/analytics/recovery returns (the service's
// categories and overall), and --run takes a run name. SQLite only: the CLI adds no SQL of its own.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-db.ts";
import { seedAnalyticsFixture, type AnalyticsFixture } from "../../helpers/analytics-fixture.ts";
import { getRecoveryAnalytics } from "../../../lib/services/analytics/get-recovery-analytics.ts";
import { getDistributions } from "../../../lib/services/analytics/get-distributions.ts";
import { getAnnotationAnalytics } from "../../../lib/services/analytics/get-annotation-analytics.ts";
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
  const cli = (...args: string[]) =>
    run(path.join(root, "node_modules/.bin/tsx"), ["cli/reterm.ts", "analytics", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.config.url },
    });

  it("prints the API's object with --json, filtered by run name", async () => {
    const { stdout } = await cli("recovery", "--run", "m1-base-100", "--json");
    const expected = await getRecoveryAnalytics(t.ctx, { ...EMPTY_ANALYTICS_FILTER, runId: [fx.runs.A] });
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify({ categories: expected.categories, overall: expected.overall })));
    expect(Object.keys(JSON.parse(stdout).categories[0])).toEqual(
      expect.arrayContaining([
        "category",
        "forkPoints",
        "attempts",
        "successfulAttempts",
        "recoveredForkPoints",
        "recoveryRate",
        "recoveryAtK",
      ]),
    );
  }, 300_000);

  // Each CLI start takes 30–60 s on the shared machine (load 25–40), hence the long timeouts.
  it("prints distributions as the API does", async () => {
    const d = JSON.parse((await cli("distributions", "--run", "m1-base-100", "--json")).stdout);
    const expected = await getDistributions(t.ctx, { ...EMPTY_ANALYTICS_FILTER, runId: [fx.runs.A] });
    expect(d).toEqual(
      JSON.parse(
        JSON.stringify({
          length: expected.length,
          firstError: expected.firstError,
          withoutError: expected.withoutError,
          attemptsToRecover: expected.attemptsToRecover,
          siblingReward: expected.siblingReward,
        }),
      ),
    );
  }, 300_000);

  it("prints annotation analytics as the API does and names a bad period", async () => {
    const a = JSON.parse((await cli("annotation", "--period", "day", "--json")).stdout);
    const ea = await getAnnotationAnalytics(t.ctx, EMPTY_ANALYTICS_FILTER, "day");
    expect(ea.labels.length).toBeGreaterThan(0); // the fixture labels one fork point
    expect(a).toEqual(
      JSON.parse(
        JSON.stringify({ period: "day", periods: ea.periods, labels: ea.labels, completed: ea.completed, agreement: ea.agreement }),
      ),
    );
    await expect(cli("annotation", "--period", "month")).rejects.toMatchObject({
      code: expect.any(Number),
      stderr: expect.stringContaining("period"),
    });
  }, 300_000);

  it("names an unknown run and exits non-zero", async () => {
    await expect(cli("recovery", "--run", "nope")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no run named "nope"'),
    });
  }, 300_000);
});
