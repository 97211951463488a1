// Per-test results read from terminal output (pytest, unittest, cargo, go test, jest), and the tests whose state
// changed over a trajectory — e.g. "test_case_3 failed at step 12 and passed from step 20". Only what the output
// actually shows is reported; no result lines means "no per-test data", never a guess.
import { stripAnsi } from "../ansi.ts";

export type TestStatus = "passed" | "failed" | "skipped";

export interface TestResult {
  name: string;
  status: TestStatus;
}

const STATUS: Record<string, TestStatus> = {
  PASSED: "passed",
  ok: "passed",
  PASS: "passed",
  XFAIL: "passed",
  "✓": "passed",
  "√": "passed",
  FAILED: "failed",
  FAIL: "failed",
  ERROR: "failed",
  XPASS: "failed",
  "✕": "failed",
  "×": "failed",
  SKIPPED: "skipped",
  SKIP: "skipped",
  skipped: "skipped",
  ignored: "skipped",
};

const PATTERNS: { re: RegExp; name: number; status: number }[] = [
  // pytest -v: "tests/test_x.py::test_a PASSED   [ 10%]"
  { re: /^(\S+::\S+)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/, name: 1, status: 2 },
  // pytest short summary: "FAILED tests/test_x.py::test_a - AssertionError"
  { re: /^(FAILED|ERROR|PASSED)\s+(\S+::\S+)/, name: 2, status: 1 },
  // unittest -v: "test_a (pkg.TestX) ... ok"  /  "test_a (pkg.TestX.test_a) ... FAIL"
  { re: /^(test\w*) \(([\w.]+)\)(?: \S.*)? \.\.\. (ok|FAIL|ERROR|skipped)\b/, name: 0, status: 3 },
  // cargo test: "test tests::it_works ... ok"
  { re: /^test (\S+) \.\.\. (ok|FAILED|ignored)$/, name: 1, status: 2 },
  // go test -v: "--- PASS: TestX (0.00s)"
  { re: /^\s*--- (PASS|FAIL|SKIP): (\S+)/, name: 2, status: 1 },
  // jest: "  ✓ adds numbers (3 ms)"
  { re: /^\s+(✓|✕|√|×) (.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$/, name: 2, status: 1 },
];

/** Test results visible in one piece of output, the last mention of each test winning. */
export function parseTestResults(output: string): TestResult[] {
  const byName = new Map<string, TestStatus>();
  for (const raw of stripAnsi(output).split("\n")) {
    const line = raw.trimEnd();
    if (line.length > 500) continue;
    for (const p of PATTERNS) {
      const m = p.re.exec(line);
      if (!m) continue;
      const status = STATUS[m[p.status]!];
      const name = p.name === 0 ? `${m[2]}.${m[1]}` : m[p.name]!;
      if (status && name) byName.set(name, status);
      break;
    }
  }
  return [...byName].map(([name, status]) => ({ name, status }));
}

export interface TestHistory {
  name: string;
  /** One entry per change of state (the first entry is the first time the test was seen). */
  changes: { stepIndex: number; status: TestStatus }[];
}

/**
 * Follows each test through the steps' outputs (in step order) and returns the tests whose state changed at or
 * after `sinceStep` (e.g. after a fork point: what a recovery attempt fixed or broke).
 */
export class TestTracker {
  private readonly tests = new Map<string, TestHistory>();

  add(stepIndex: number, output: string | null): void {
    if (!output) return;
    for (const r of parseTestResults(output)) {
      const h = this.tests.get(r.name) ?? { name: r.name, changes: [] };
      if (h.changes.at(-1)?.status !== r.status) h.changes.push({ stepIndex, status: r.status });
      this.tests.set(r.name, h);
    }
  }

  get seen(): number {
    return this.tests.size;
  }

  changed(sinceStep = 0): TestHistory[] {
    return [...this.tests.values()]
      .filter((h) => h.changes.length > 1 && h.changes.some((c, i) => i > 0 && c.stepIndex >= sinceStep))
      .sort((a, b) => a.changes[1]!.stepIndex - b.changes[1]!.stepIndex || a.name.localeCompare(b.name));
  }

  /** Last known state of every test. */
  final(): TestResult[] {
    return [...this.tests.values()].map((h) => ({ name: h.name, status: h.changes.at(-1)!.status }));
  }
}
