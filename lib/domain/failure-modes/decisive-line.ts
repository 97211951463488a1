// Which line of a failing step's output says what went wrong. Output often holds several error-looking lines (a
// traceback's frames, make's "Error 1" after the compiler's message, pytest's summary after its assertions): the
// matchers below are tried in order and the first that finds a line decides, so the cause wins over its echoes.
import type { ErrorCategory } from "../taxonomy.ts";

export interface DecisiveLine {
  /** Which matcher chose the line (stable: part of the signature). */
  kind: string;
  /** The line as shown (trimmed), or a canonical phrase for failures whose line is all noise (a segfault). */
  line: string;
  /** Category the line itself implies, when more specific than the detector's rule (a missing module, not just an exception). */
  category?: ErrorCategory;
}

interface Matcher {
  kind: string;
  pattern: RegExp;
  /** Take the last matching line (exceptions end a traceback) rather than the first (compilers report the cause first). */
  last?: boolean;
  /** Rewrite the matched line: drop prefixes that vary without meaning (the shell's name, its line number). */
  rewrite?: (m: RegExpExecArray) => string;
  category?: ErrorCategory | ((m: RegExpExecArray) => ErrorCategory | undefined);
}

const MISSING =
  /ModuleNotFoundError|No module named|Cannot find module|ImportError: (?:cannot import|No module)|cannot find -l|Unable to locate package|No matching distribution|Could not find a version that satisfies/;
const exceptionCategory = (m: RegExpExecArray): ErrorCategory | undefined =>
  MISSING.test(m[0])
    ? "missing-dependency"
    : /PermissionError|FileNotFoundError|IsADirectoryError|NotADirectoryError/.test(m[0])
      ? "file-permission"
      : /TimeoutError|TimeoutExpired/.test(m[0])
        ? "timeout"
        : /AssertionError/.test(m[0])
          ? "test-failure"
          : "runtime-exception";

const MATCHERS: Matcher[] = [
  // Crashes: the line is mostly a PID and a command; the phrase is the failure.
  {
    kind: "signal",
    pattern: /\b(Segmentation fault|Bus error|Illegal instruction|Floating point exception|Aborted)(?: \(core dumped\))?/,
    rewrite: (m) => m[1]!,
    category: "runtime-exception",
  },
  { kind: "panic", pattern: /^(?:thread '[^']*' )?panicked at (.*)$/, category: "runtime-exception" },
  {
    kind: "command-not-found",
    pattern: /^(?:.*?: )?(?:line \d+: )?(?:\d+: )?([^\s:]+): (?:command )?not found$/,
    rewrite: (m) => `'${m[1]}': command not found`,
    category: "command-error",
  },
  {
    kind: "command-not-found",
    pattern: /^'?([^\s']+)'? is not recognized as an internal or external command/,
    rewrite: (m) => `'${m[1]}': command not found`,
    category: "command-error",
  },
  // pytest's short summary names the test and the assertion; its `E   ` lines say the same without the test.
  {
    kind: "pytest",
    pattern: /^FAILED (\S+)(?: - (.+))?$/,
    rewrite: (m) => (m[2] ? `FAILED '${m[1]}' - ${m[2]}` : `FAILED '${m[1]}'`),
    category: "test-failure",
  },
  { kind: "pytest", pattern: /^E {2,}(\S.*)$/, rewrite: (m) => m[1]!, category: "test-failure" },
  {
    kind: "exception",
    pattern: /^(?:[A-Za-z_][\w.]*)?(?:Error|Exception|Exit|Interrupt|Warning|Failure)(?::\s?.*)?$/,
    last: true,
    category: exceptionCategory,
  },
  // Compilers and linkers: the first error is the cause, later ones often follow from it.
  { kind: "compiler", pattern: /^(?:\S+?:\d+(?::\d+)?: )?(?:fatal )?error(?:\[E\d+\]| TS\d+)?: .+$/, category: "test-failure" },
  {
    kind: "linker",
    pattern: /(?:undefined reference to .+|ld: cannot find .+|ld returned \d+ exit status)$/,
    category: "missing-dependency",
  },
  {
    kind: "package-manager",
    pattern:
      /^(?:npm (?:ERR!|error) (?:code )?\S.*|E: .+|ERROR: (?:No matching distribution|Could not find a version|Could not install|Failed building).+|error: externally-managed-environment)$/,
    category: (m) => (MISSING.test(m[0]) || /E404|404 Not Found|ETARGET/.test(m[0]) ? "missing-dependency" : "command-error"),
  },
  // `cmd: operand: reason`: the command and the reason are the mode, the operand a value. An operand the tool
  // quoted itself (`cannot open 'x' for reading`) is left to the normaliser, which reads quoted operands as paths here.
  {
    kind: "file",
    pattern:
      /^(?:([\w.+\-]+): )?(?:line \d+: )?(.*?):? (No such file or directory|Permission denied|Read-only file system|Is a directory|Not a directory)$/,
    rewrite: (m) => (/['"`‘]/.test(m[2]!) ? m.input.trim() : `${m[1] ? `${m[1]}: ` : ""}'${m[2]}': ${m[3]}`),
    category: "file-permission",
  },
  // Agent harness messages about the agent's own output: the first sentence is the failure, the advice after it varies.
  {
    kind: "harness",
    pattern:
      /(Your proposed edit has introduced new syntax error\(s\)|Previous response had parsing errors|ERROR: Missing required fields)/,
    rewrite: (m) => m[1]!,
    category: "format-error",
  },
  {
    kind: "syntax",
    pattern: /syntax error(?: near unexpected token .*)?$|unexpected EOF while looking for .*$|bad substitution$/,
    category: "command-error",
  },
  {
    kind: "tool-error",
    pattern: /^Error \((\w+)\).*$/,
    category: (m) => (/permission|file_not_found|is_a_directory/.test(m[1]!) ? "file-permission" : "command-error"),
  },
  { kind: "test-summary", pattern: /^=+ (.*\b\d+ failed\b.*?) =+$|^Tests?:\s+\d+ failed.*$/, category: "test-failure" },
  { kind: "make", pattern: /^make(?:\[\d+\])?: \*\*\* .* Error \d+$/, category: "command-error" },
  { kind: "timeout", pattern: /\b(?:timed out|time limit exceeded|Killed)\b.*$/i, category: "timeout" },
  { kind: "prompt", pattern: /\(y\/n\)|\[Y\/n\]|\[y\/N\]|Press (?:ENTER|any key)|-- INSERT --|^\(END\)$/, category: "hang" },
  { kind: "error-line", pattern: /^(?:error|ERROR|fatal|FATAL|Error): .+$/ },
];

/** Lines examined: a step's output can be huge, the cause is near its end. */
const MAX_LINES = 400;

/** The decisive line of already ANSI-stripped output, or null when no line stands out (the caller falls back). */
export function findDecisiveLine(text: string): DecisiveLine | null {
  const lines = text.split("\n");
  const tail = lines.length > MAX_LINES ? lines.slice(-MAX_LINES) : lines;
  const trimmed = tail.map((l) => l.trimEnd());
  for (const m of MATCHERS) {
    let found: RegExpExecArray | null = null;
    for (let i = 0; i < trimmed.length; i++) {
      const line = m.last ? trimmed[trimmed.length - 1 - i]! : trimmed[i]!;
      const hit = m.pattern.exec(m.kind === "pytest" ? line : line.trimStart());
      if (hit) {
        found = hit;
        break;
      }
    }
    if (!found) continue;
    const category = typeof m.category === "function" ? m.category(found) : m.category;
    return { kind: m.kind, line: (m.rewrite ? m.rewrite(found) : found.input).trim(), ...(category ? { category } : {}) };
  }
  return null;
}
