import { stripAnsi } from "./ansi.ts";
import type { ErrorCategory } from "./taxonomy.ts";
import type { StepInput } from "./trajectory.ts";

/** A detector finding: a suggestion anchored to a step, never a label. */
export interface DetectedErrorSuggestion {
  stepIndex: number;
  category: ErrorCategory;
  signal: string;
  excerpt: string;
  confidence: number;
}

interface Rule {
  signal: string;
  category: ErrorCategory;
  pattern: RegExp;
  confidence: number;
}

// Order matters: the first matching rule per step wins (most specific first).
const RULES: Rule[] = [
  {
    signal: "missing-module",
    category: "missing-dependency",
    pattern:
      /ModuleNotFoundError|No module named|cannot find -l\S+|Cannot find module '|E: Unable to locate package|No matching distribution found|error: externally-managed-environment/,
    confidence: 0.95,
  },
  {
    signal: "command-not-found",
    category: "command-error",
    pattern: /(?:command not found|: not found$|is not recognized as an internal or external command)/m,
    confidence: 0.95,
  },
  {
    signal: "test-failure",
    category: "test-failure",
    pattern:
      /^(?:=+ .*\b\d+ failed\b.*=+|FAILED \S+|FAIL[: ]\s*\S+|Tests?:\s+\d+ failed)|\b\d+ (?:failed|errors?)(?:,| in )|AssertionError|error(?:\[E\d+\])?: (?:could not compile|aborting due)|\berror: .*\bexpected\b|compilation terminated|make: \*\*\* .* Error \d+/m,
    confidence: 0.85,
  },
  {
    signal: "traceback",
    category: "runtime-exception",
    pattern:
      /Traceback \(most recent call last\)|^\s+at \S+ \(.*:\d+:\d+\)$|Segmentation fault|panicked at|Unhandled(?:Promise)?Rejection|^(?:[A-Z]\w*Error|Exception): /m,
    confidence: 0.9,
  },
  {
    signal: "permission-or-path",
    category: "file-permission",
    pattern: /Permission denied|No such file or directory|Read-only file system|Is a directory|Not a directory|cannot access '/,
    confidence: 0.85,
  },
  { signal: "timeout", category: "timeout", pattern: /\b(?:timed out|Timeout(?:Error)?|time limit exceeded|Killed)\b/i, confidence: 0.7 },
  {
    signal: "interactive-prompt",
    category: "hang",
    pattern: /\(y\/n\)|\[Y\/n\]|\[y\/N\]|Press (?:ENTER|any key)|^~\s*$\n^~\s*$|-- INSERT --|^\(END\)$|^:\s*$/m,
    confidence: 0.6,
  },
  {
    signal: "syntax-error",
    category: "command-error",
    pattern: /syntax error(?: near unexpected token)?|unexpected EOF while looking for|bad substitution|Usage: |usage: /,
    confidence: 0.7,
  },
  {
    signal: "tool-error",
    category: "command-error",
    pattern: /^Error \((?:parsing|unicode_decode|limit|approval|output_limit|unknown)\)/m,
    confidence: 0.8,
  },
  {
    signal: "tool-error",
    category: "file-permission",
    pattern: /^Error \((?:permission|file_not_found|is_a_directory)\)/m,
    confidence: 0.85,
  },
  {
    signal: "parse-error",
    category: "format-error",
    pattern: /Previous response had parsing errors|Your proposed edit has introduced new syntax error|Invalid JSON|could not parse/i,
    confidence: 0.8,
  },
];

const MAX_SCAN = 64 * 1024;

function excerptAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", Math.max(0, index - 1)) + 1;
  const endNl = text.indexOf("\n", index);
  const end = endNl === -1 ? text.length : endNl;
  return text.slice(start, Math.min(end, start + 200)).trim();
}

/** What the detector reads of a step's output: its last 64 KiB, as the agent saw it (escapes interpreted). */
export function detectorText(observation: string | undefined | null): string {
  const raw = observation ?? "";
  return stripAnsi(raw.length > MAX_SCAN ? raw.slice(-MAX_SCAN) : raw);
}

/** Errors visible in one step (observation + exit code). Scans at most the last 64 KiB of output. */
export function detectStepError(
  step: Pick<StepInput, "observation" | "exitCode">,
  stepIndex: number,
  text = detectorText(step.observation),
): DetectedErrorSuggestion | null {
  for (const rule of RULES) {
    const m = rule.pattern.exec(text);
    if (m)
      return {
        stepIndex,
        category: rule.category,
        signal: rule.signal,
        excerpt: excerptAround(text, m.index),
        confidence: rule.confidence,
      };
  }
  if (step.exitCode !== undefined && step.exitCode !== 0) {
    const category: ErrorCategory =
      step.exitCode === 124 || step.exitCode === 137 ? "timeout" : step.exitCode === 127 ? "command-error" : "command-error";
    const lastLine = text.trim().split("\n").pop() ?? "";
    return {
      stepIndex,
      category,
      signal: "exit-code",
      excerpt: `exit ${step.exitCode}${lastLine ? `: ${lastLine.slice(0, 160)}` : ""}`,
      confidence: 0.8,
    };
  }
  return null;
}

/** Run the detector over every step. "No evidence found" is an empty list, never a guess. */
export function detectErrors(steps: readonly Pick<StepInput, "observation" | "exitCode">[]): DetectedErrorSuggestion[] {
  const out: DetectedErrorSuggestion[] = [];
  steps.forEach((s, i) => {
    const d = detectStepError(s, i);
    if (d) out.push(d);
  });
  return out;
}
