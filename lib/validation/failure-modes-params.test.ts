import { describe, expect, it } from "vitest";
import { failureModesQueryFrom, failureModesQueryFromUrl, failureModesQuerySchema } from "./failure-modes-params.ts";

describe("failure-mode query parameters", () => {
  it("turns import days into an inclusive range of whole UTC days", () => {
    const q = failureModesQueryFrom(failureModesQuerySchema.parse({ runId: "r1", from: "2026-03-01", to: "2026-03-02" }));
    expect(q.filter.runId).toEqual(["r1"]);
    expect(q.filter.from?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(q.filter.to?.toISOString()).toBe("2026-03-03T00:00:00.000Z");
    expect(q.compare).toBeNull();
    expect(q.limit).toBe(50);
  });

  it("names the bad parameter (strict) and drops it (page URL)", () => {
    const bad = failureModesQuerySchema.safeParse({ from: "yesterday" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["from"]);
    expect(failureModesQuerySchema.safeParse({ compareBy: "run", baseline: "a" }).error?.issues[0]?.path).toEqual(["compared"]);
    expect(failureModesQuerySchema.safeParse({ nope: "1" }).success).toBe(false);
    const url = failureModesQueryFromUrl({
      from: "yesterday",
      checkpoint: ["200", "400"],
      compareBy: "checkpoint",
      baseline: "200",
      compared: "400",
    });
    expect(url.filter.from).toBeNull();
    expect(url.filter.checkpoint).toEqual(["200", "400"]);
    expect(url.compare).toEqual({ by: "checkpoint", baseline: "200", compared: "400" });
    expect(failureModesQueryFromUrl({ compareBy: "model", baseline: "a", compared: "b" }).compare).toBeNull();
  });
});
