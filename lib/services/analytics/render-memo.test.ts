// The per-render memo shares reads between the sections of one render, and only there: a context without one (CLI,
// API, tests) and the next render query again, so a figure is never older than its request.
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client.ts";
import type { ServiceContext } from "../context.ts";
import { EMPTY_ANALYTICS_FILTER } from "../../validation/analytics-params.ts";
import { allRuns, forOneRender, runTaskSamples } from "./render-memo.ts";

function fakeContext() {
  const findMany = vi.fn(async () => [{ id: "r1", name: "run", model: null, checkpoint: null, trainingMethod: null }]);
  const queryRaw = vi.fn(async () => [{ runId: "r1", taskId: "t1", n: 4, c: 1, u: 0 }]);
  const db = { run: { findMany }, $queryRaw: queryRaw } as unknown as Db;
  const ctx: ServiceContext = { db, actor: { id: "u", name: "u", role: "admin" } };
  return { ctx, findMany, queryRaw };
}

describe("analytics render memo", () => {
  it("queries every time without a render context", async () => {
    const { ctx, findMany } = fakeContext();
    await allRuns(ctx);
    await allRuns(ctx);
    expect(findMany).toHaveBeenCalledTimes(2);
  });

  it("reads once per render, and again in the next render", async () => {
    const { ctx, findMany } = fakeContext();
    const render = forOneRender(ctx);
    const [a, b] = await Promise.all([allRuns(render), allRuns(render)]);
    expect(a).toBe(b);
    expect(findMany).toHaveBeenCalledTimes(1);
    await allRuns(forOneRender(ctx));
    expect(findMany).toHaveBeenCalledTimes(2);
    await allRuns(ctx);
    expect(findMany).toHaveBeenCalledTimes(3);
  });

  it("shares run x task counts only between equal filters (in any order)", async () => {
    const { ctx, queryRaw } = fakeContext();
    const render = forOneRender(ctx);
    const f = EMPTY_ANALYTICS_FILTER;
    await runTaskSamples(render, { ...f, category: ["a", "b"] });
    await runTaskSamples(render, { ...f, category: ["b", "a"] });
    expect(queryRaw).toHaveBeenCalledTimes(1);
    await runTaskSamples(render, { ...f, category: ["a"] });
    await runTaskSamples(render, f);
    expect(queryRaw).toHaveBeenCalledTimes(3);
    expect(await runTaskSamples(render, f)).toEqual([{ runId: "r1", taskId: "t1", n: 4, c: 1, unknown: 0 }]);
    expect(queryRaw).toHaveBeenCalledTimes(3);
  });
});
