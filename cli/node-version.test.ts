import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, SUPPORTED_NODE } from "./node-version.ts";

describe("the Node.js version check", () => {
  it("accepts ^20.19 and >=22.12", () => {
    for (const v of ["20.19.0", "20.20.2", "v20.19.5", "22.12.0", "22.20.1", "23.0.0", "24.11.1", "30.1.0"])
      expect(nodeVersionProblem(v)).toBeNull();
  });

  it("refuses older versions and 21 / 22 before .12, in one line naming the version and the range", () => {
    for (const v of ["18.20.4", "20.9.0", "20.18.3", "21.7.3", "22.0.0", "22.11.0", "v16.0.0"]) {
      const problem = nodeVersionProblem(v);
      expect(problem).toContain(`this is ${v.replace(/^v/, "")}`);
      expect(problem).toContain(SUPPORTED_NODE);
      expect(problem).not.toContain("\n");
    }
    expect(nodeVersionProblem("garbage")).toContain("cannot read the Node.js version");
  });

  it("states the same range as package.json engines", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE);
  });
});
