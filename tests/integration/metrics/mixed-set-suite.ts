// Every surface that shows a pass rate, pass@k or recovery figure — the Runs and Tasks pages (their services and
// rendered rows), GET /api/v1/runs and /tasks, the analytics API (recovery, progress, compare) and the CLI's --json —
// checked against plain SQL on one mixed set (mixed-set.ts), with unknown outcomes counted apart and in no denominator.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { renderToStaticMarkup } from "react-dom/server";
import { createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "../../helpers/test-db.ts";
import { getRunDetail, getTaskDetail, listRuns, listTasks } from "../../../lib/services/browse/browse-catalog.ts";
import {
  expectedRecovery,
  expectedRollouts,
  loadMixedSet,
  sqlForkUnits,
  sqlRolloutCells,
  TREE_RUN,
  TREE_TASK,
  wilson,
  type SqlForkUnit,
  type SqlRolloutCell,
} from "./mixed-set.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
// Imported once the test's DATABASE_URL is set (the handlers read the process-wide database).
const ROUTES: Record<string, () => Promise<{ GET: unknown }>> = {
  runs: () => import("../../../app/api/v1/runs/route.ts"),
  tasks: () => import("../../../app/api/v1/tasks/route.ts"),
  "analytics/recovery": () => import("../../../app/api/v1/analytics/recovery/route.ts"),
  "analytics/progress": () => import("../../../app/api/v1/analytics/progress/route.ts"),
  "analytics/compare": () => import("../../../app/api/v1/analytics/compare/route.ts"),
};

/** Every number in `expected` matches `actual` (to 1e-10), every null is null; keys not in `expected` are ignored. */
function expectMatches(actual: unknown, expected: unknown, where: string): void {
  if (expected === null) return void expect(actual, where).toBeNull();
  if (typeof expected === "number") return void expect(actual, where).toBeCloseTo(expected, 10);
  if (typeof expected === "object") {
    expect(actual, where).toBeTypeOf("object");
    for (const [k, v] of Object.entries(expected as Record<string, unknown>))
      expectMatches((actual as Record<string, unknown>)[k], v, `${where}.${k}`);
    return;
  }
  expect(actual, where).toEqual(expected);
}

// The list pages are server components: rendered here as a request would, with no request headers (local mode signs
// in RETERM_USER), so the test reads the numbers a visitor sees, not only the service behind them.
vi.mock("server-only", () => ({}));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
const PAGES = {
  runs: () => import("../../../app/(dashboard)/runs/(list)/page.tsx"),
  tasks: () => import("../../../app/(dashboard)/tasks/(list)/page.tsx"),
};

/** The cells' text of the rendered table row that links to `href`, tags stripped. */
function rowCells(html: string, href: string): string[] {
  const row = html.split("<tr").find((r) => r.includes(`href="${href}"`));
  expect(row, `a row linking to ${href}`).toBeDefined();
  return row!
    .split("<td")
    .slice(1)
    .map((c) =>
      c
        .replace(/<[^>]*>/g, "")
        .replace(/^[^>]*>/, "")
        .replace(/&amp;/g, "&")
        .trim(),
    );
}

/** What a rate cell reads, written out here from the SQL numbers: "25%[5%, 70%] · 1 unknown", "—", … */
function rateText(rate: number | null, ci: { lo: number; hi: number } | null, unknown: number, label: string): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const parts = [ci ? `[${pct(ci.lo)}, ${pct(ci.hi)}]` : "", unknown ? `${unknown.toLocaleString("en-US")} ${label}` : ""].filter(Boolean);
  return `${rate === null ? "—" : pct(rate)}${parts.join(" · ")}`;
}

const group = <T extends SqlRolloutCell | SqlForkUnit>(xs: T[], key: "runId" | "taskId", id: string) => xs.filter((x) => x[key] === id);

export function defineMixedSetSuite(provider: Provider): void {
  const target = PROVIDERS.find((p) => p.provider === provider)!;
  describe(`metrics on a mixed set (${target.title})`, () => {
    let t: TestDatabase;
    let withSft = false;
    let cells: SqlRolloutCell[];
    let perRun: SqlForkUnit[];
    let overall: SqlForkUnit[];
    const handler = async (file: string): Promise<Handler> => (await ROUTES[file]!()).GET as Handler;
    const get = async (file: string, query = "") => {
      const res = await (await handler(file))(new NextRequest(`http://localhost/api/v1/${file}${query}`), { params: Promise.resolve({}) });
      expect(res.status, `${file}${query}`).toBe(200);
      return res.json() as Promise<Record<string, unknown>>;
    };

    beforeAll(async () => {
      if (target.skip) return;
      t = await createTestDatabase(provider);
      process.env.DATABASE_URL = t.config.url;
      process.env.RETERM_USER = "metrics-test";
      withSft = await loadMixedSet(t.ctx);
      [cells, perRun, overall] = await Promise.all([sqlRolloutCells(t.db), sqlForkUnits(t.db, true), sqlForkUnits(t.db, false)]);
    }, 600_000);
    afterAll(async () => {
      if (target.skip) return;
      const { closeDatabase } = await import("../../../lib/services/system/setup-database.ts");
      await closeDatabase();
      await t?.drop();
    });

    it.skipIf(target.skip)("holds what the test needs: unknown outcomes, known attempts, several checkpoints", async () => {
      expect(cells.some((c) => c.unknown > 0)).toBe(true);
      expect(perRun.some((u) => u.known > 0 && u.attempts > u.known)).toBe(true);
      expect(perRun.some((u) => u.attempts > 0 && u.known === 0)).toBe(true);
      const checkpoints = await t.db.run.findMany({ where: { trainingMethod: "grpo" }, select: { checkpoint: true } });
      expect(new Set(checkpoints.map((c) => c.checkpoint)).size).toBeGreaterThanOrEqual(3);
      if (withSft) expect(cells.some((c) => c.unknown > 0 && c.passed + c.failed === 0)).toBe(true);
    });

    it.skipIf(target.skip)("Runs and Tasks pages: every row against SQL", async () => {
      const runs = await listRuns(t.ctx);
      expect(runs.length).toBe(await t.db.run.count());
      for (const r of runs) {
        const e = expectedRollouts(group(cells, "runId", r.id));
        expectMatches(
          r.figures,
          {
            rollouts: e.rollouts,
            passed: e.passed,
            failed: e.failed,
            unknown: e.unknown,
            passAtK: e.passAtK,
            passAtKProblems: e.passAtKProblems,
          },
          `run ${r.name}`,
        );
        expectMatches(
          r.figures.passRate,
          { rate: e.rate, ci: e.ci, n: e.passed + e.failed, unknown: e.unknown },
          `run ${r.name} pass rate`,
        );
        expectMatches(r.recovery, expectedRecovery(group(perRun, "runId", r.id)), `run ${r.name} recovery`);
      }
      const tasks = await listTasks(t.ctx);
      expect(tasks.length).toBe(await t.db.task.count());
      for (const task of tasks) {
        const e = expectedRollouts(group(cells, "taskId", task.id));
        expectMatches(
          task.figures,
          { rollouts: e.rollouts, passed: e.passed, unknown: e.unknown, passAtK: e.passAtK },
          `task ${task.name}`,
        );
        expectMatches(task.figures.passRate, { rate: e.rate, ci: e.ci }, `task ${task.name} pass rate`);
        expectMatches(task.recovery, expectedRecovery(group(perRun, "taskId", task.id)), `task ${task.name} recovery`);
      }
      // The fork tree by hand: 5 rollouts (1 unknown) → 1 / 4; fork points: r1 recovered at its 2nd attempt, r2 only unknown.
      const tree = runs.find((r) => r.name === TREE_RUN)!;
      expect(tree.figures).toMatchObject({ rollouts: 5, passed: 1, failed: 3, unknown: 1 });
      expect(tree.figures.passRate.rate).toBeCloseTo(0.25, 12);
      expect(tree.recovery).toMatchObject({
        forkPoints: 2,
        evaluatedForkPoints: 1,
        unevaluatedForkPoints: 1,
        attempts: 6,
        unknownAttempts: 3,
        recoveredForkPoints: 1,
        recoveryRate: 1,
        meanAttemptsToFirstSuccess: 2,
      });
      expect(tree.recovery.recoveryAtKForkPoints).toEqual({ "1": 1, "2": 1, "4": 0, "8": 0 });
      expect(tree.recovery.recoveryAtK["4"]).toBeNull();
    });

    it.skipIf(target.skip)("Runs and Tasks pages as rendered: counts, pass rate, interval and unknown count against SQL", async () => {
      const [runsPage, tasksPage] = await Promise.all([PAGES.runs(), PAGES.tasks()]);
      const runsHtml = renderToStaticMarkup(await runsPage.default());
      const runs = await t.db.run.findMany();
      expect(runsHtml.split('data-testid="run-row"').length - 1).toBe(runs.length);
      let shownUnknown = 0;
      for (const r of runs) {
        const e = expectedRollouts(group(cells, "runId", r.id));
        const rec = expectedRecovery(group(perRun, "runId", r.id));
        const [, rollouts, passed, passRate, attempts, recoveryRate] = rowCells(runsHtml, `/runs/${r.id}`);
        expect([rollouts, passed], `run ${r.name} counts`).toEqual([e.rollouts.toLocaleString("en-US"), e.passed.toLocaleString("en-US")]);
        expect(passRate, `run ${r.name} pass rate`).toBe(rateText(e.rate, e.ci, e.unknown, "unknown"));
        expect(attempts, `run ${r.name} recovery attempts`).toBe(rec.attempts ? rec.attempts.toLocaleString("en-US") : "—");
        expect(recoveryRate, `run ${r.name} recovery rate`).toBe(
          rateText(rec.recoveryRate, wilson(rec.recoveredForkPoints, rec.evaluatedForkPoints), rec.unknownAttempts, "attempts unknown"),
        );
        if (e.unknown) shownUnknown++;
      }
      expect(shownUnknown, "some run shows its unknown count").toBeGreaterThan(0);

      const tasksHtml = renderToStaticMarkup(await tasksPage.default());
      const tasks = await t.db.task.findMany();
      expect(tasksHtml.split('data-testid="task-row"').length - 1).toBe(tasks.length);
      for (const task of tasks) {
        const e = expectedRollouts(group(cells, "taskId", task.id));
        const rec = expectedRecovery(group(perRun, "taskId", task.id));
        const [, rollouts, passed, passRate, , recoveryRate] = rowCells(tasksHtml, `/tasks/${task.id}`);
        expect([rollouts, passed], `task ${task.name} counts`).toEqual([
          e.rollouts.toLocaleString("en-US"),
          e.passed.toLocaleString("en-US"),
        ]);
        expect(passRate, `task ${task.name} pass rate`).toBe(rateText(e.rate, e.ci, e.unknown, "unknown"));
        expect(recoveryRate, `task ${task.name} recovery rate`).toBe(
          rateText(rec.recoveryRate, wilson(rec.recoveredForkPoints, rec.evaluatedForkPoints), rec.unknownAttempts, "attempts unknown"),
        );
      }
    });

    it.skipIf(target.skip)("run and task detail pages against SQL", async () => {
      const tree = await t.db.run.findFirstOrThrow({ where: { name: TREE_RUN } });
      const d = await getRunDetail(t.ctx, tree.id);
      const e = expectedRollouts(group(cells, "runId", tree.id));
      expectMatches(d.figures, { rollouts: e.rollouts, unknown: e.unknown, passAtK: e.passAtK }, "run detail");
      expectMatches(d.figures.passRate, { rate: e.rate, ci: e.ci }, "run detail pass rate");
      expectMatches(d.recovery, expectedRecovery(group(perRun, "runId", tree.id)), "run detail recovery");
      for (const id of [(await t.db.task.findFirstOrThrow({ where: { name: TREE_TASK } })).id, cells.find((c) => c.passed > 0)!.taskId]) {
        const td = await getTaskDetail(t.ctx, id);
        for (const r of td.runs) {
          const mine = cells.filter((c) => c.taskId === id && c.runId === r.id);
          const er = expectedRollouts(mine);
          expectMatches(r.figures, { rollouts: er.rollouts, unknown: er.unknown, passAtK: er.passAtK }, `task ${id} run ${r.name}`);
          expectMatches(r.figures.passRate, { rate: er.rate, ci: er.ci }, `task ${id} run ${r.name} pass rate`);
        }
      }
    });

    it.skipIf(target.skip)("GET /api/v1/runs and /tasks answer the pages' numbers", async () => {
      const { runs } = (await get("runs")) as { runs: Record<string, unknown>[] };
      const byId = new Map(runs.map((r) => [r["id"] as string, r]));
      for (const r of await t.db.run.findMany()) {
        const api = byId.get(r.id)!;
        const e = expectedRollouts(group(cells, "runId", r.id));
        expectMatches(
          api,
          {
            name: r.name,
            model: r.model,
            checkpoint: r.checkpoint,
            counts: { rollouts: e.rollouts, passed: e.passed, failed: e.failed, unknown: e.unknown },
            passRate: { rate: e.rate, ci: e.ci, n: e.passed + e.failed },
            passAtK: e.passAtK,
            passAtKTasks: e.passAtKProblems,
            recovery: expectedRecovery(group(perRun, "runId", r.id)),
          },
          `GET /runs ${r.name}`,
        );
      }
      const { tasks } = (await get("tasks")) as { tasks: Record<string, unknown>[] };
      expect(tasks.length).toBe(await t.db.task.count());
      for (const task of tasks) {
        const e = expectedRollouts(group(cells, "taskId", String(task["id"])));
        expectMatches(
          task,
          {
            counts: { rollouts: e.rollouts, passed: e.passed, failed: e.failed, unknown: e.unknown },
            passRate: { rate: e.rate, ci: e.ci },
            passAtK: e.passAtK,
            passAtKRuns: e.passAtKProblems,
          },
          `GET /tasks ${task["name"]}`,
        );
      }
    });

    it.skipIf(target.skip)("the analytics API: recovery overall and per run, progress per checkpoint, comparison", async () => {
      const recovery = (await get("analytics/recovery")) as { overall: unknown };
      expectMatches(recovery.overall, expectedRecovery(overall), "analytics recovery overall");
      const tree = await t.db.run.findFirstOrThrow({ where: { name: TREE_RUN } });
      const treeRecovery = (await get("analytics/recovery", `?runId=${tree.id}`)) as { overall: unknown };
      expectMatches(treeRecovery.overall, expectedRecovery(group(perRun, "runId", tree.id)), "analytics recovery for the tree run");

      const progress = (await get("analytics/progress")) as { series: { points: Record<string, unknown>[] }[] };
      const points = progress.series.flatMap((s) => s.points);
      const withKnown = new Set(cells.filter((c) => c.passed + c.failed > 0).map((c) => c.runId));
      expect(points.map((p) => p["runId"]).sort()).toEqual([...withKnown].sort());
      for (const p of points) {
        const e = expectedRollouts(group(cells, "runId", String(p["runId"])));
        expectMatches(
          p,
          {
            rollouts: e.passed + e.failed,
            passed: e.passed,
            unknown: e.unknown,
            passAtK: e.passAtK,
            passAtKTasks: e.passAtKProblems,
            lowN: e.passed + e.failed < 5,
          },
          `progress ${p["runName"]}`,
        );
        expectMatches((p as { passRate: unknown }).passRate, { rate: e.rate, ci: e.ci }, `progress ${p["runName"]} pass rate`);
      }

      const [a, b] = [tree.id, cells.find((c) => c.runId !== tree.id && c.passed + c.failed > 0)!.runId];
      const cmp = (await get("analytics/compare", `?compare=${a}&compare=${b}&k=2`)) as { runs: Record<string, unknown>[] };
      for (const [i, id] of [a, b].entries()) {
        const e = expectedRollouts(group(cells, "runId", id));
        expectMatches(
          cmp.runs[i],
          {
            rollouts: e.passed + e.failed,
            passed: e.passed,
            unknown: e.unknown,
            passRate: e.rate,
            passRateCi: e.ci,
            passAtK: e.passAtK["2"],
          },
          `compare ${id}`,
        );
      }
      // Known-only denominators also in the Wilson bounds the compare view prints.
      expect(wilson(1, 4)).toEqual((cmp.runs[0] as { passRateCi: unknown }).passRateCi);
    });

    it.skipIf(target.skip)(
      "the CLI's --json prints the API's objects",
      async () => {
        const cli = (...args: string[]) =>
          run(path.join(root, "node_modules/.bin/tsx"), ["cli/reterm.ts", "analytics", ...args, "--json"], {
            cwd: root,
            env: { ...process.env, DATABASE_URL: t.config.url },
          });
        const [runsOut, tasksOut, recoveryOut] = await Promise.all([cli("runs"), cli("tasks"), cli("recovery")]);
        expect(JSON.parse(runsOut.stdout)).toEqual(await get("runs"));
        expect(JSON.parse(tasksOut.stdout)).toEqual(await get("tasks"));
        const recovery = JSON.parse(recoveryOut.stdout) as { overall: unknown };
        expectMatches(recovery.overall, expectedRecovery(overall), "CLI recovery overall");
      },
      600_000,
    );
  });
}
