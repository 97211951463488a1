import { toIso } from "./util.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chatToSteps, fileStem, nullNonFinite, readPythonJson, renderToolCall, withOffsets } from "./chat-steps.ts";
import { fileSource } from "./source.ts";

describe("chatToSteps", () => {
  it("puts tool results on the step whose call they answer, not simply the last one", () => {
    const steps = chatToSteps([
      { role: "user", text: "go" },
      { role: "assistant", toolCalls: [{ id: "a", name: "bash", arguments: { command: "make" } }] },
      { role: "assistant", text: "meanwhile", toolCalls: [{ id: "b", name: "bash", arguments: { command: "ls" } }] },
      { role: "tool", toolCallId: "a", text: "make: error", exitCode: 2 },
      { role: "tool", toolCallId: "b", text: "README", exitCode: 0 },
      { role: "tool", toolCallId: "zzz", text: "orphan" },
    ]);
    expect(steps.map((s) => [s.source, s.action, s.observation, s.exitCode])).toEqual([
      ["user", undefined, undefined, undefined],
      ["agent", "make", "make: error", 2],
      // An answer to an unknown call goes to the latest agent step.
      ["agent", "ls", "README\norphan", 0],
    ]);
  });

  it("keeps the failing exit code when several results land on one step", () => {
    const steps = chatToSteps([
      {
        role: "assistant",
        toolCalls: [
          { id: "a", name: "bash", arguments: { cmd: "true" } },
          { id: "b", name: "bash", arguments: { cmd: "false" } },
        ],
      },
      { role: "tool", toolCallId: "b", text: "", exitCode: 1 },
      { role: "tool", toolCallId: "a", text: "", exitCode: 0 },
    ]);
    expect(steps[0]?.exitCode).toBe(1);
  });

  it("in text mode, turns the user turn after an agent step into its observation, once", () => {
    const steps = chatToSteps(
      [
        { role: "system", text: "sys" },
        { role: "user", text: "task" },
        { role: "assistant", text: "```bash\nls\n```", action: "ls" },
        { role: "user", text: "rc=3|out" },
        { role: "user", text: "a follow-up question" },
      ],
      { userTurnIsObservation: true, parseObservation: (t) => ({ observation: t.split("|")[1] ?? t, exitCode: Number(t.slice(3, 4)) }) },
    );
    expect(steps.map((s) => [s.source, s.message, s.observation, s.exitCode])).toEqual([
      ["system", "sys", undefined, undefined],
      ["user", "task", undefined, undefined],
      ["agent", "```bash\nls\n```", "out", 3],
      ["user", "a follow-up question", undefined, undefined],
    ]);
  });

  it("keeps tool results that precede any agent step as tool steps", () => {
    expect(chatToSteps([{ role: "tool", text: "early" }])).toEqual([
      { source: "tool", timestamp: undefined, observation: "early", exitCode: undefined },
    ]);
  });
});

describe("renderToolCall", () => {
  it.each([
    [{ name: "bash", arguments: { command: "ls -la\n" } }, "ls -la"],
    [{ name: "bash_command", arguments: { keystrokes: "cat x\n", duration: 1 } }, "cat x"],
    [{ name: "python", arguments: { code: "print(1)" } }, "print(1)"],
    // An editor's `command` is a sub-command, not a command line.
    [{ name: "str_replace_editor", arguments: { command: "view", path: "/a" } }, 'str_replace_editor {"command":"view","path":"/a"}'],
    [{ name: "submit", arguments: {} }, "submit"],
    [{ name: "search", arguments: "raw text" }, "search raw text"],
  ])("%j → %s", (call, expected) => {
    expect(renderToolCall(call)).toBe(expected);
  });
});

describe("timestamps", () => {
  it.each([
    ["2025-10-10T06:10:15.158090", "2025-10-10T06:10:15.158Z"],
    ["2025-05-12T20:27:36-04:00", "2025-05-13T00:27:36.000Z"],
    ["2026-01-01 10:00:00", "2026-01-01T10:00:00.000Z"],
    [1767261600, "2026-01-01T10:00:00.000Z"],
    ["NORMALIZED_TIMESTAMP", undefined],
    [null, undefined],
  ])("toIso(%j) = %s", (input, expected) => {
    expect(toIso(input)).toBe(expected);
  });

  it("derives offsets from the first timestamp or a given start", () => {
    const steps = [
      { source: "user" as const, timestamp: "2026-01-01T10:00:01.000Z" },
      { source: "agent" as const },
      { source: "agent" as const, timestamp: "2026-01-01T10:00:03.500Z" },
    ];
    expect(withOffsets(structuredClone(steps)).map((s) => s.offsetMs)).toEqual([0, undefined, 2500]);
    expect(withOffsets(structuredClone(steps), "2026-01-01T10:00:00.000Z").map((s) => s.offsetMs)).toEqual([1000, undefined, 3500]);
  });
});

describe("fileStem", () => {
  it("drops folders, .gz and the first matching suffix", () => {
    expect(fileStem("runs/a/django__django-1.traj.json.gz", [".traj.json", ".json"])).toBe("django__django-1");
    expect(fileStem("x.JSON", [".json"])).toBe("x");
    expect(fileStem(".json", [".json"])).toBe(".json");
  });
});

describe("Python-flavoured JSON", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-pyjson-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("nulls bare NaN and ±Infinity but not the same words inside strings", () => {
    expect(JSON.parse(nullNonFinite('{"a": NaN, "b": [-Infinity, Infinity], "c": "NaN \\" Infinity"}'))).toEqual({
      a: null,
      b: [null, null],
      c: 'NaN " Infinity',
    });
  });

  it("reads such a file, and still reports real syntax errors", async () => {
    const good = path.join(dir, "nan.json");
    fs.writeFileSync(good, '{"stderr": NaN}');
    expect(await readPythonJson(await fileSource(good))).toMatchObject({ ok: true, value: { stderr: null } });
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, '{"stderr": NaN,\n "x": }');
    const doc = await readPythonJson(await fileSource(bad));
    expect(doc.ok ? "parsed" : doc.record.ok ? "?" : doc.record.issue.message).toMatch(/^invalid JSON/);
  });
});
