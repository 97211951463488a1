import { describe, expect, it } from "vitest";
import { parseTestResults, TestTracker } from "./test-results.ts";

describe("parseTestResults", () => {
  it("reads pytest, unittest, cargo, go and jest result lines (colours stripped)", () => {
    const out = [
      "tests/test_a.py::test_one \u001b[32mPASSED\u001b[0m          [ 50%]",
      "tests/test_a.py::test_two \u001b[31mFAILED\u001b[0m          [100%]",
      "test_add (calc.tests.TestCalc) ... ok",
      "test_div (calc.tests.TestCalc) ... FAIL",
      "test parser::it_parses ... ok",
      "--- FAIL: TestServe (0.01s)",
      "  ✓ adds numbers (3 ms)",
      "  ✕ divides by zero",
      "nothing to see here",
    ].join("\n");
    expect(parseTestResults(out)).toEqual([
      { name: "tests/test_a.py::test_one", status: "passed" },
      { name: "tests/test_a.py::test_two", status: "failed" },
      { name: "calc.tests.TestCalc.test_add", status: "passed" },
      { name: "calc.tests.TestCalc.test_div", status: "failed" },
      { name: "parser::it_parses", status: "passed" },
      { name: "TestServe", status: "failed" },
      { name: "adds numbers", status: "passed" },
      { name: "divides by zero", status: "failed" },
    ]);
  });

  it("finds nothing in output without results", () => {
    expect(parseTestResults("total 32\ndrwxr-xr-x 1 root root 4096 .\nFAILED to open file")).toEqual([]);
  });
});

describe("TestTracker", () => {
  it("reports tests whose state changed, optionally only after a fork step", () => {
    const t = new TestTracker();
    t.add(3, "tests/t.py::a PASSED\ntests/t.py::b FAILED\ntests/t.py::c FAILED");
    t.add(5, "FAILED tests/t.py::b - AssertionError");
    t.add(8, "tests/t.py::b PASSED\ntests/t.py::c FAILED\ntests/t.py::a FAILED");
    t.add(9, null);
    expect(t.seen).toBe(3);
    expect(t.changed().map((h) => [h.name, h.changes])).toEqual([
      [
        "tests/t.py::a",
        [
          { stepIndex: 3, status: "passed" },
          { stepIndex: 8, status: "failed" },
        ],
      ],
      [
        "tests/t.py::b",
        [
          { stepIndex: 3, status: "failed" },
          { stepIndex: 8, status: "passed" },
        ],
      ],
    ]);
    expect(t.changed(9)).toEqual([]);
    expect(t.final()).toContainEqual({ name: "tests/t.py::c", status: "failed" });
  });
});
