import { describe, expect, it } from "vitest";
import { PAGE_PERMISSIONS, openablePages } from "./authz.ts";
import { ACCESS_TABLE } from "../../tests/helpers/access/access-table.ts";

describe("openablePages", () => {
  it("lists for each role exactly the nav pages it may open", () => {
    expect(openablePages({ role: "viewer" })).toEqual(["/trajectories", "/tasks", "/runs", "/datasets", "/analytics"]);
    expect(openablePages({ role: "annotator" })).toEqual(["/trajectories", "/tasks", "/runs", "/annotation", "/datasets", "/analytics"]);
    expect(openablePages({ role: "researcher" })).toEqual([
      "/trajectories",
      "/tasks",
      "/runs",
      "/annotation",
      "/datasets",
      "/analytics",
      "/import",
      "/admin/jobs",
    ]);
    expect(openablePages({ role: "admin" })).toEqual(Object.keys(PAGE_PERMISSIONS));
  });

  it("uses the permission each page's guard requires (the route × role matrix checks the guards)", () => {
    for (const [path, permission] of Object.entries(PAGE_PERMISSIONS)) {
      const entry = ACCESS_TABLE.find((e) => e.kind === "page" && e.path === path);
      expect(entry?.need, path).toBe(permission);
    }
  });
});
