// Realistic failure scenarios (command errors, missing dependencies, failing tests, hung commands, ...) with
// ANSI-coloured output and the command that recovers from each.
import type { ErrorCategory } from "../domain/taxonomy.ts";
import type { Rng } from "../domain/random.ts";

export interface ErrorScenario {
  key: string;
  category: ErrorCategory;
  langs: ("python" | "node" | "c" | "shell" | "rust")[];
  reasoning: string;
  cmd: string;
  /**
   * The failing output. `vary` (a stream apart from the generator's, so other draws stay as they were) varies the
   * line numbers, durations and values a real failure varies, so failure modes group on generated data.
   */
  output: (rng: Rng, vary: Rng) => string;
  exitCode: number;
  recoveryReasoning: string;
  fix: string;
  fixOutput: string;
}

const RED = "\u001b[31m";
const BRED = "\u001b[1;31m";
const GREEN = "\u001b[32m";
const YEL = "\u001b[33m";
const RST = "\u001b[0m";

/** Multi-line tool output of realistic size (install logs, test runs, compiler output). */
export function bulkyOutput(rng: Rng, kind: "pip" | "pytest-pass" | "pytest-fail" | "make" | "npm", lines: number): string {
  const out: string[] = [];
  if (kind === "pip") {
    for (let i = 0; i < lines; i++)
      out.push(
        `Collecting pkg-${i}>=1.${i % 9}\n  Downloading pkg_${i}-1.${i % 9}.${i % 5}-py3-none-any.whl (${(rng() * 900 + 20).toFixed(1)} kB)\n     ${GREEN}━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━${RST} ${(rng() * 900).toFixed(1)}/900.0 kB ${RED}${(rng() * 9).toFixed(1)} MB/s${RST} eta ${GREEN}0:00:00${RST}`,
      );
    out.push(`Successfully installed ${Array.from({ length: Math.min(lines, 6) }, (_, i) => `pkg-${i}-1.${i}`).join(" ")}`);
  } else if (kind === "pytest-pass" || kind === "pytest-fail") {
    out.push(
      `${"=".repeat(29)} test session starts ${"=".repeat(29)}`,
      "platform linux -- Python 3.12.3, pytest-8.3.3, pluggy-1.5.0",
      "rootdir: /app",
      `collected ${lines} items`,
      "",
    );
    const failAt = kind === "pytest-fail" ? Math.floor(rng() * lines) : -1;
    for (let i = 0; i < lines; i++)
      out.push(
        `tests/test_outputs.py::test_case_${i} ${i === failAt ? `${RED}FAILED${RST}` : `${GREEN}PASSED${RST}`}${" ".repeat(10)}[${String(Math.round(((i + 1) / lines) * 100)).padStart(3)}%]`,
      );
    if (kind === "pytest-fail") {
      out.push(
        "",
        `${"=".repeat(33)} FAILURES ${"=".repeat(33)}`,
        `${BRED}___ test_case_${failAt} ___${RST}`,
        "    def test_case():",
        `>       assert result == expected`,
        `${RED}E       AssertionError: assert 41 == 42${RST}`,
        "",
        `${RED}FAILED${RST} tests/test_outputs.py::test_case_${failAt} - AssertionError: assert 41 == 42`,
        `${RED}${"=".repeat(20)} 1 failed, ${lines - 1} passed in ${(rng() * 3).toFixed(2)}s ${"=".repeat(20)}${RST}`,
      );
    } else out.push(`${GREEN}${"=".repeat(25)} ${lines} passed in ${(rng() * 3).toFixed(2)}s ${"=".repeat(25)}${RST}`);
  } else if (kind === "make") {
    for (let i = 0; i < lines; i++) out.push(`    ${YEL}CC${RST} src/module_${i}.o`);
  } else {
    for (let i = 0; i < lines; i++) out.push(`npm ${YEL}WARN${RST} deprecated pkg-${i}@1.0.${i}: this version is no longer supported`);
  }
  return out.join("\n");
}

export const ERROR_SCENARIOS: ErrorScenario[] = [
  {
    key: "module-not-found",
    category: "missing-dependency",
    langs: ["python"],
    reasoning: "Run the script to reproduce the failure.",
    cmd: "python3 main.py --check",
    exitCode: 1,
    output: (_rng, vary) =>
      `Traceback (most recent call last):\n  File "/app/main.py", line ${1 + Math.floor(vary() * 40)}, in <module>\n    import numpy as np\n${BRED}ModuleNotFoundError${RST}: No module named 'numpy'`,
    recoveryReasoning: "numpy is missing from the environment; install it before running again.",
    fix: "pip install numpy",
    fixOutput: `Collecting numpy\n  Downloading numpy-2.1.3-cp312-cp312-manylinux_2_17_x86_64.whl (16.0 MB)\n     ${GREEN}━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━${RST} 16.0/16.0 MB 48.1 MB/s eta 0:00:00\nSuccessfully installed numpy-2.1.3`,
  },
  {
    key: "pip-big-install-fails",
    category: "missing-dependency",
    langs: ["python"],
    reasoning: "Install the requirements.",
    cmd: "pip install -r requirements.txt",
    exitCode: 1,
    output: (rng) =>
      `${bulkyOutput(rng, "pip", 12 + Math.floor(rng() * 30))}\n${RED}ERROR: Could not find a version that satisfies the requirement torch==2.9.9 (from versions: 2.4.0, 2.5.1)${RST}\n${RED}ERROR: No matching distribution found for torch==2.9.9${RST}`,
    recoveryReasoning: "The pinned torch version does not exist; relax the pin.",
    fix: "sed -i 's/torch==2.9.9/torch>=2.4/' requirements.txt && pip install -r requirements.txt",
    fixOutput: "Successfully installed torch-2.5.1",
  },
  {
    key: "command-not-found",
    category: "command-error",
    langs: ["python", "node", "c", "shell", "rust"],
    reasoning: "Use ripgrep to find the relevant code.",
    cmd: "rg -n 'def parse' .",
    exitCode: 127,
    output: () => "bash: rg: command not found",
    recoveryReasoning: "ripgrep is not installed; grep does the same job.",
    fix: "grep -rn 'def parse\\|function parse' .",
    fixOutput: "./main.py:12:def parse(path):",
  },
  {
    key: "pytest-fails",
    category: "test-failure",
    langs: ["python"],
    reasoning: "Run the test-suite to see what fails.",
    cmd: "python -m pytest -q tests/",
    exitCode: 1,
    output: (rng) => bulkyOutput(rng, "pytest-fail", 8 + Math.floor(rng() * 60)),
    recoveryReasoning: "The off-by-one is in the loop bound; fix it and rerun.",
    fix: "sed -i 's/range(len(rows) - 1)/range(len(rows))/' main.py && python -m pytest -q tests/",
    fixOutput: `${GREEN}12 passed in 0.84s${RST}`,
  },
  {
    key: "hung-server",
    category: "hang",
    langs: ["python", "node", "shell"],
    reasoning: "Start the server and check it answers.",
    cmd: "python3 -m http.server 8000",
    exitCode: 124,
    output: (_rng, vary) =>
      `Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...\n^C\n[command timed out after ${60 + Math.floor(vary() * 541)}s]`,
    recoveryReasoning: "The server blocks the shell; run it in the background.",
    fix: "(python3 -m http.server 8000 >/tmp/srv.log 2>&1 &) && sleep 1 && curl -s localhost:8000 | head -3",
    fixOutput: '<!DOCTYPE HTML>\n<html lang="en">\n<head>',
  },
  {
    key: "vim-left-open",
    category: "hang",
    langs: ["python", "c", "shell", "rust", "node"],
    reasoning: "Edit the config file.",
    cmd: "vim config.yaml",
    exitCode: 124,
    output: () => `~\n~\n~\n${"\u001b[7m"}config.yaml [+]${RST}\n-- INSERT --`,
    recoveryReasoning: "The editor is waiting for input; quit it and edit non-interactively.",
    fix: "printf ':q!\\n' && sed -i 's/debug: true/debug: false/' config.yaml",
    fixOutput: "",
  },
  {
    key: "permission-denied",
    category: "file-permission",
    langs: ["shell", "c", "python"],
    reasoning: "Install the binary system-wide.",
    cmd: "cp build/app /usr/local/bin/app",
    exitCode: 1,
    output: () => "cp: cannot create regular file '/usr/local/bin/app': Permission denied",
    recoveryReasoning: "The destination is not writable for this user; install into ~/.local/bin and put it on PATH.",
    fix: "mkdir -p ~/.local/bin && cp build/app ~/.local/bin/ && export PATH=$HOME/.local/bin:$PATH",
    fixOutput: "",
  },
  {
    key: "no-such-file",
    category: "file-permission",
    langs: ["python", "node", "c", "shell", "rust"],
    reasoning: "Inspect the input data.",
    cmd: "head -5 data/input.csv",
    exitCode: 1,
    output: () => "head: cannot open 'data/input.csv' for reading: No such file or directory",
    recoveryReasoning: "The file lives somewhere else; search for it.",
    fix: "find / -name 'input.csv' -not -path '*/proc/*' 2>/dev/null | head -3",
    fixOutput: "/app/fixtures/input.csv",
  },
  {
    key: "gcc-error",
    category: "test-failure",
    langs: ["c"],
    reasoning: "Build the project.",
    cmd: "make",
    exitCode: 2,
    output: (rng, vary) =>
      `${bulkyOutput(rng, "make", 6 + Math.floor(rng() * 20))}\nsrc/server.c: In function '${BRED}handle_request${RST}':\nsrc/server.c:${20 + Math.floor(vary() * 381)}:${1 + Math.floor(vary() * 20)}: ${BRED}error:${RST} implicit declaration of function 'strlcpy' [-Wimplicit-function-declaration]\nmake: *** [Makefile:23: src/server.o] Error 1`,
    recoveryReasoning: "strlcpy is not in glibc; use snprintf instead.",
    fix: "sed -i 's/strlcpy(\\(.*\\), \\(.*\\), \\(.*\\));/snprintf(\\1, \\3, \"%s\", \\2);/' src/server.c && make",
    fixOutput: "    LINK server",
  },
  {
    key: "rust-borrow",
    category: "test-failure",
    langs: ["rust"],
    reasoning: "Compile.",
    cmd: "cargo build",
    exitCode: 101,
    output: (_rng, vary) =>
      `   Compiling wc-lite v0.1.0 (/app)\n${BRED}error[E0502]${RST}: cannot borrow \`counts\` as mutable because it is also borrowed as immutable\n  --> src/main.rs:${5 + Math.floor(vary() * 116)}:${1 + Math.floor(vary() * 24)}\n${BRED}error${RST}: could not compile \`wc-lite\` (bin "wc-lite") due to 1 previous error`,
    recoveryReasoning: "Clone the key before mutating the map.",
    fix: "sed -i 's/counts.get(&w)/counts.get(&w).cloned()/' src/main.rs && cargo build",
    fixOutput: "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.02s",
  },
  {
    key: "npm-test-fails",
    category: "test-failure",
    langs: ["node"],
    reasoning: "Run the tests.",
    cmd: "npm test",
    exitCode: 1,
    output: (rng) =>
      `${bulkyOutput(rng, "npm", 4)}\n\n> api@1.0.0 test\n> jest\n\n ${BRED}FAIL${RST} tests/users.test.js\n  ● GET /users/:id › returns JSON\n\n    expect(received).toEqual(expected)\n\nTests:       ${RED}1 failed${RST}, 14 passed, 15 total`,
    recoveryReasoning: "The route sends a string instead of JSON.",
    fix: "sed -i 's/res.send(JSON.stringify(user))/res.json(user)/' src/routes/users.js && npm test",
    fixOutput: `Tests:       ${GREEN}15 passed${RST}, 15 total`,
  },
  {
    key: "node-stack",
    category: "runtime-exception",
    langs: ["node"],
    reasoning: "Start the app.",
    cmd: "node src/index.js",
    exitCode: 1,
    output: (_rng, vary) => {
      const line = 5 + Math.floor(vary() * 60);
      return `/app/src/index.js:${line}\n  const port = config.server.port;\n                            ^\n\nTypeError: Cannot read properties of undefined (reading 'port')\n    at Object.<anonymous> (/app/src/index.js:${line}:29)\n    at Module._compile (node:internal/modules/cjs/loader:1546:14)`;
    },
    recoveryReasoning: "config.server is missing; fall back to the PORT env var.",
    fix: "sed -i 's/config.server.port/(config.server?.port ?? process.env.PORT ?? 8080)/' src/index.js && node src/index.js & sleep 1",
    fixOutput: "listening on 8080",
  },
  {
    key: "python-traceback",
    category: "runtime-exception",
    langs: ["python"],
    reasoning: "Run the pipeline on the sample.",
    cmd: "python3 main.py data/sample.csv",
    exitCode: 1,
    output: (_rng, vary) => {
      const line = 20 + Math.floor(vary() * 40);
      const amount = `${1 + Math.floor(vary() * 999)}.${String(Math.floor(vary() * 100)).padStart(2, "0")}`;
      return `Traceback (most recent call last):\n  File "/app/main.py", line ${line + 8}, in <module>\n    main(sys.argv[1])\n  File "/app/main.py", line ${line}, in main\n    total += int(row["amount"])\n${BRED}ValueError${RST}: invalid literal for int() with base 10: '${amount}'`;
    },
    recoveryReasoning: "Amounts are decimals; parse them as Decimal.",
    fix: "sed -i 's/int(row\\[\"amount\"\\])/Decimal(row[\"amount\"])/' main.py && sed -i '1i from decimal import Decimal' main.py && python3 main.py data/sample.csv",
    fixOutput: "total: 1843.50",
  },
  {
    key: "bash-syntax",
    category: "command-error",
    langs: ["shell"],
    reasoning: "Write the loop in one go.",
    cmd: "for f in *.log; do gzip $f; done fi",
    exitCode: 2,
    output: () => "bash: syntax error near unexpected token `fi'",
    recoveryReasoning: "Stray `fi`; remove it.",
    fix: 'for f in *.log; do gzip "$f"; done',
    fixOutput: "",
  },
];
