import { describe, expect, it } from "vitest";
import { normalizeLine, stepSignature } from "./index.ts";

const sig = (observation: string, exitCode?: number) => stepSignature({ observation, exitCode }, 0);
const hashOf = (observation: string, exitCode?: number) => sig(observation, exitCode)?.templateHash;

// Planted failures: each entry is one failure mode written with varying paths, numbers, names, temp dirs, times.
const MODES: Record<string, string[]> = {
  missingModule: [
    "Traceback (most recent call last):\n  File \"/app/run.py\", line 3, in <module>\n    import numpy\nModuleNotFoundError: No module named 'numpy'",
    "Traceback (most recent call last):\n  File \"/tmp/tmp8x2k_q/main.py\", line 41, in <module>\n    import pandas as pd\nModuleNotFoundError: No module named 'pandas'",
    "\u001b[31mTraceback (most recent call last):\u001b[0m\r\n  File \"solve.py\", line 1, in <module>\r\nModuleNotFoundError: No module named 'scipy.sparse'\r\n",
  ],
  commandNotFound: [
    "bash: rg: command not found",
    "bash: line 12: jq: command not found",
    "/bin/sh: 1: cargo: not found",
    "zsh: command not found: fd".replace("zsh: command not found: fd", "fd: command not found"),
  ],
  noSuchFile: [
    "cat: /tmp/tmp.XyZ123/output.txt: No such file or directory",
    "cat: results/2026-01-03/run_17.json: No such file or directory",
    "cat: notes.md: No such file or directory",
  ],
  lsMissing: ["ls: cannot access '/var/data/x': No such file or directory", "ls: cannot access 'build': No such file or directory"],
  segfault: [
    "bash: line 1:  4242 Segmentation fault      (core dumped) ./a.out",
    "Segmentation fault (core dumped)",
    "timeout: the monitored command dumped core\n  977 Segmentation fault ./bin/solver --n 12",
  ],
  keyError: [
    "Traceback (most recent call last):\n  File \"/app/a.py\", line 9\nKeyError: 'user_id'",
    "Traceback (most recent call last):\n  File \"/srv/b.py\", line 120\nKeyError: 'timestamp'",
  ],
  gccError: [
    "main.c: In function 'main':\nmain.c:12:5: error: 'count' undeclared (first use in this function)\nmake: *** [Makefile:4: all] Error 1",
    "src/util/io.c:301:17: error: 'buf_len' undeclared (first use in this function)\nmake: *** [Makefile:19: build] Error 2",
  ],
  pytestAssert: [
    "tests/test_io.py F\n=========================== short test summary info ============================\nFAILED tests/test_io.py::test_roundtrip - AssertionError: assert 3 == 4\n==== 1 failed, 4 passed in 0.21s ====",
    "FAILED tests/unit/test_parse.py::test_empty[case7] - AssertionError: assert 0 == 12\n==== 2 failed in 1.02s ====",
  ],
  npm404: [
    "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padz - Not found",
    "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fwidgets - Not found",
  ],
  permission: [
    "cp: cannot create regular file '/usr/bin/tool': Permission denied",
    "cp: cannot create regular file '/etc/app.conf': Permission denied",
  ],
  pyPermission: [
    "Traceback (most recent call last):\nPermissionError: [Errno 13] Permission denied: '/root/.cache/x'",
    "Traceback (most recent call last):\nPermissionError: [Errno 13] Permission denied: '/opt/data/out.csv'",
  ],
  timeout: [
    "Traceback (most recent call last):\nsubprocess.TimeoutExpired: Command '['make', 'test']' timed out after 600 seconds",
    "Traceback (most recent call last):\nsubprocess.TimeoutExpired: Command '['pytest', '-x']' timed out after 30 seconds",
  ],
  hexAddress: [
    "Traceback (most recent call last):\nRuntimeError: CUDA error at 0x7ffd3a2c10 (stream 5f3a9c01)",
    "Traceback (most recent call last):\nRuntimeError: CUDA error at 0x55d0e0 (stream 0b8e77aa)",
  ],
};

describe("error signatures group failures by mode", () => {
  for (const [mode, outputs] of Object.entries(MODES)) {
    it(`gives one template to every ${mode} whatever the path, number or name`, () => {
      const sigs = outputs.map((o) => sig(o, 1));
      for (const s of sigs) expect(s, JSON.stringify(outputs)).not.toBeNull();
      expect(new Set(sigs.map((s) => s!.templateHash)).size, sigs.map((s) => s!.template).join("\n")).toBe(1);
    });
  }

  it("never merges different failures", () => {
    const hashes = Object.entries(MODES).map(([mode, outputs]) => [mode, hashOf(outputs[0]!, 1)] as const);
    const byHash = new Map<string | undefined, string[]>();
    for (const [mode, h] of hashes) byHash.set(h, [...(byHash.get(h) ?? []), mode]);
    for (const modes of byHash.values()) expect(modes).toHaveLength(1);
  });

  it("keeps the concrete values the template abstracted", () => {
    expect(sig(MODES.missingModule![0]!, 1)).toMatchObject({
      template: "ModuleNotFoundError: No module named '<name>'",
      values: ["numpy"],
      category: "missing-dependency",
    });
    expect(sig(MODES.commandNotFound![1]!)).toMatchObject({
      template: "'<name>': command not found",
      values: ["jq"],
      category: "command-error",
    });
    expect(sig(MODES.noSuchFile![0]!, 1)).toMatchObject({
      template: "cat: '<path>': No such file or directory",
      values: ["/tmp/tmp.XyZ123/output.txt"],
      category: "file-permission",
    });
    expect(sig(MODES.segfault![0]!, 139)?.template).toBe("Segmentation fault");
  });

  it("takes the cause, not its echo: the compiler's error over make's, the exception over the traceback's frames", () => {
    expect(sig(MODES.gccError![0]!, 2)?.template).toBe("<path>:<n>:<n>: error: '<name>' undeclared (first use in this function)");
    expect(sig(MODES.keyError![0]!, 1)?.template).toBe("KeyError: '<name>'");
    expect(sig(MODES.pytestAssert![0]!, 1)).toMatchObject({
      template: "FAILED '<path>' - AssertionError: assert <n> == <n>",
      category: "test-failure",
    });
  });

  it("keeps failures apart that differ in wording, not only in values", () => {
    const a = hashOf("Traceback (most recent call last):\nValueError: invalid literal for int() with base 10: 'x'", 1);
    const b = hashOf("Traceback (most recent call last):\nTypeError: unsupported operand type(s) for +: 'int' and 'str'", 1);
    const c = hashOf("main.c:3:1: error: expected ';' before '}' token", 1);
    const d = hashOf("main.c:3:1: error: expected ')' before '}' token", 1);
    expect(new Set([a, b, c, d]).size).toBe(4);
  });

  it("has no signature where the detector finds no error (no evidence, no guess)", () => {
    expect(sig("all tests passed", 0)).toBeNull();
    expect(sig("")).toBeNull();
  });

  it("falls back to the detector's excerpt for an exit code with unremarkable output", () => {
    const a = sig("checking 14 files\nsomething odd happened in /tmp/x", 3);
    const b = sig("checking 210 files\nsomething odd happened in /var/y/z", 3);
    expect(a?.templateHash).toBe(b?.templateHash);
    expect(a?.template).toBe("exit <n>: something odd happened in <path>");
  });
});

describe("normalizeLine", () => {
  it.each([
    ["at 2026-01-03T12:04:55.123Z took 35ms", "at <time> took <n>ms"],
    ["id 3f2a9c1e-1b2c-4d5e-8f90-123456789abc failed", "id <id> failed"],
    ["GET https://example.com/a?b=1 returned 503", "GET <url> returned <n>"],
    ["commit 9fceb02d0ae598e95dc970b74767f19372d61af8 missing", "commit <hex> missing"],
    ["error: expected ';' before '}' token", "error: expected ';' before '}' token"],
    ["see ~/proj/x.py and ./run.sh and config.yaml", "see <path> and <path> and <path>"],
    ["python3 and x86_64 and E0425 stay", "python3 and x86_64 and E0425 stay"],
  ])("%j → %j", (line, template) => {
    expect(normalizeLine(line).template).toBe(template);
  });
});

describe("operands the tool quoted itself", () => {
  it.each([
    [
      "head: cannot open 'data/input.csv' for reading: No such file or directory",
      "head: cannot open 'x.csv' for reading: No such file or directory",
      "head: cannot open '<path>' for reading: No such file or directory",
    ],
    [
      "cp: cannot create regular file '/usr/local/bin/app': Permission denied",
      "cp: cannot create regular file 'app': Permission denied",
      "cp: cannot create regular file '<path>': Permission denied",
    ],
  ])("%j", (a, b, template) => {
    expect(sig(a, 1)?.template).toBe(template);
    expect(sig(b, 1)?.templateHash).toBe(sig(a, 1)?.templateHash);
  });
});

it("groups an agent harness's message by its first sentence, whatever advice follows", () => {
  const a = sig(
    "Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit command.\nERRORS:\n- E999 IndentationError: unexpected indent",
  );
  const b = sig(
    "Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\nERRORS:\n- F821 undefined name 'x'",
  );
  expect(a).toMatchObject({ template: "Your proposed edit has introduced new syntax error(s)", category: "format-error" });
  expect(b?.templateHash).toBe(a?.templateHash);
});
