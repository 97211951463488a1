// The failed tests of a vitest or Playwright JSON report, one line each, for the end of `npm test`: a long run's log
// is often read from its tail only (CI shows the last lines), and the summary must say which test failed, not just
// which stage.
import fs from "node:fs";

export type Failure = { where: string; why: string };

type VitestReport = {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
};

type PwResult = { status: string; error?: { message?: string } };
type PwSpec = { title: string; file?: string; line?: number; tests?: { status: string; results?: PwResult[] }[] };
type PwSuite = { title: string; file?: string; specs?: PwSpec[]; suites?: PwSuite[] };
type PwReport = { suites?: PwSuite[]; errors?: { message?: string }[] };

const firstLine = (s: string | undefined): string =>
  (s ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .find((l) => l.trim()) ?? "";

export function vitestFailures(report: VitestReport, root: string): Failure[] {
  const out: Failure[] = [];
  for (const file of report.testResults ?? []) {
    const rel = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed) out.push({ where: `${rel} › ${a.fullName}`, why: firstLine(a.failureMessages?.[0]) });
    // A file can fail with no failed test: an error in a hook or at import.
    if (file.status === "failed" && !failed.length) out.push({ where: rel, why: firstLine(file.message) });
  }
  return out;
}

export function playwrightFailures(report: PwReport): Failure[] {
  const out: Failure[] = [];
  const walk = (suite: PwSuite, path: string[]): void => {
    const here = suite.title && !suite.file?.endsWith(suite.title) ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        // "flaky" passed on its retry; only "unexpected" fails the run.
        if (t.status !== "unexpected") continue;
        const err = t.results?.find((r) => r.error)?.error?.message;
        out.push({ where: `${spec.file ?? suite.file}:${spec.line ?? 0} › ${[...here, spec.title].join(" › ")}`, why: firstLine(err) });
      }
    }
    for (const s of suite.suites ?? []) walk(s, here);
  };
  for (const s of report.suites ?? []) walk(s, []);
  for (const e of report.errors ?? []) out.push({ where: "(outside any test)", why: firstLine(e.message) });
  return out;
}

/** The failures a report file lists, or a line saying it could not be read (a crashed run writes none). */
export function readFailures(file: string, kind: "vitest" | "playwright", root: string): Failure[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return [{ where: file, why: "no report: the run stopped before writing it; see its output above" }];
  }
  return kind === "vitest" ? vitestFailures(parsed as VitestReport, root) : playwrightFailures(parsed as PwReport);
}
