// Figures several sections of one analytics page render read — the run × task outcome counts behind training
// progress and task health, the run and task lists behind every section's filters and drill-down links — are
// computed once per render instead of once per section (on SQLite the sections' queries run one after another on
// one connection, so every repeat adds to the page time). The memo belongs to a context made for one render
// (`forOneRender`, called by the page), so nothing is kept across requests and no figure can be stale after an
// import or a label. Contexts without one (CLI, API, tests) query every time.
import type { ServiceContext } from "../context.ts";
import {
  findRunTaskSamples,
  findRuns,
  findTasks,
  type RunInfo,
  type RunTaskSamples,
  type TaskInfo,
} from "../../db/repositories/analytics/run-samples.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";

const memos = new WeakMap<ServiceContext, Map<string, Promise<unknown>>>();

/** A copy of `ctx` whose analytics reads are shared by everything given it; use it for one page render only. */
export function forOneRender(ctx: ServiceContext): ServiceContext {
  const scoped = { ...ctx };
  memos.set(scoped, new Map());
  return scoped;
}

function once<T>(ctx: ServiceContext, key: string, compute: () => Promise<T>): Promise<T> {
  const memo = memos.get(ctx);
  if (!memo) return compute();
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) memo.set(key, (p = compute()));
  return p;
}

// The filter's arrays keep their URL order; sorted here so the same selection in another order shares the result.
const filterKey = (f: AnalyticsFilter) => JSON.stringify([f.runId, f.model, f.checkpoint, f.method, f.category].map((v) => [...v].sort()));

export const runTaskSamples = (ctx: ServiceContext, f: AnalyticsFilter): Promise<RunTaskSamples[]> =>
  once(ctx, `samples ${filterKey(f)}`, () => findRunTaskSamples(ctx.db, f));
export const allRuns = (ctx: ServiceContext): Promise<RunInfo[]> => once(ctx, "runs", () => findRuns(ctx.db));
export const allTasks = (ctx: ServiceContext): Promise<TaskInfo[]> => once(ctx, "tasks", () => findTasks(ctx.db));
