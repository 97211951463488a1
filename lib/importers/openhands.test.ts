import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { openHandsImporter } from "./openhands.ts";
import { importerReader } from "./test-reader.ts";

const { readAll, readOne } = importerReader(openHandsImporter);

describeShared("OpenHands importer on the shared event lists", () => {
  it("pairs the run action with its observation by cause and reads exit code, tokens and timing", async () => {
    const t = await readOne(fixture("openhands-events", "atif-rfc__openhands_trajectory.json"));
    expect(t.steps.map((s) => s.source)).toEqual(["system", "user", "system", "agent", "agent"]);
    const run = t.steps[3];
    expect(run?.action).toBe(
      `printf 'Hello, world!\\n' > hello.txt && echo "Created $(pwd)/hello.txt" && echo "Size: $(wc -c < hello.txt) bytes" && printf 'Content: ' && cat hello.txt`,
    );
    expect(run).toMatchObject({
      observation: "Created /app/hello.txt\nSize: 14 bytes\nContent: Hello, world!",
      exitCode: 0,
      promptTokens: 5863,
      completionTokens: 1042,
    });
    expect(run?.toolCalls?.[0]).toMatchObject({ id: "call_ruehvjC2P8Qd6aIW5wqdqL7J", name: "execute_bash" });
    expect(t.steps[2]).toMatchObject({ observation: "Added workspace context" });
    expect(t.steps[4]?.message).toBe(
      'Created /app/hello.txt with the requested content: "Hello, world!". Let me know if you want it moved or modified.',
    );
    // Timestamps carry no zone: read as UTC; offsets are relative to the first event.
    expect(t.startedAt).toBe("2025-10-10T06:10:15.158Z");
    expect(t.endedAt).toBe("2025-10-10T06:10:41.015Z");
    expect(run?.offsetMs).toBe(23233);
    expect([t.inputTokens, t.outputTokens]).toEqual([11859, 1086]);
    expect(t.run).toMatchObject({ name: "openhands/gpt-5-2025-08-07", model: "gpt-5-2025-08-07" });
    expect(t.task.instruction).toBe('Create a file called hello.txt with "Hello, world!" as the content.\n');
    expect(t.metadata).toMatchObject({ finished: true, costUsd: 0.01934775 });
  });

  it("reads the 2048 replay: an edit action with its diff observation, then finish", async () => {
    const t = await readOne(fixture("openhands-events", "basic.json"));
    expect(t.task).toMatchObject({
      id: "basic",
      instruction: "Please create a simple 2048 game. No need to run it. Please finish the interaction after your finish coding.",
    });
    expect(t.steps.map((s) => s.source)).toEqual(["user", "agent", "agent"]);
    expect(t.steps[1]).toMatchObject({ action: "edit /workspace/game_2048.py", toolCalls: [{ name: "str_replace_editor" }] });
    expect(t.steps[1]?.toolCalls?.[0]?.arguments).toMatchObject({ command: "create", path: "/workspace/game_2048.py" });
    expect(t.steps[1]?.observation).toMatch(/^--- \/workspace\/game_2048.py\n\+\+\+ \/workspace\/game_2048.py/);
    expect(t.steps[2]?.message).toMatch(/^I've created a simple implementation of the 2048 game/);
    expect(t.run.model).toBe("claude-3-5-sonnet-20241022");
  });

  it("reads the rename replay: read, mv (exit 0, empty output), read, finish", async () => {
    const t = await readOne(fixture("openhands-events", "wrong_initial_state.json"));
    expect(t.steps.map((s) => s.action ?? s.source)).toEqual([
      "user",
      "read /workspace",
      "mv /workspace/game_2048.py /workspace/2048.py",
      "read /workspace",
      "agent",
    ]);
    expect(t.steps[2]).toMatchObject({ observation: "", exitCode: 0 });
    expect(t.steps[3]?.observation).toContain("/workspace/2048.py");
    expect(t.steps[1]?.observation).toContain("/workspace/game_2048.py");
    expect(t.steps.slice(1).map((s) => s.promptTokens)).toEqual([3475, 3616, 3804, 3933]);
  });
});

describe("OpenHands importer on hand-written files", () => {
  it("keeps think actions, non-zero exit codes, uncaused errors and an error agent state", async () => {
    const t = await readOne(path.join(import.meta.dirname, "__fixtures__", "openhands", "errors.json"));
    expect(t.steps).toEqual([
      { source: "user", timestamp: "2026-03-01T09:00:00.000Z", offsetMs: 0, message: "Install the package" },
      expect.objectContaining({ source: "agent", reasoning: "pip should work", offsetMs: 2000 }),
      expect.objectContaining({
        source: "agent",
        action: "pip install foo",
        observation: "ERROR: No matching distribution found for foo",
        exitCode: 1,
        offsetMs: 3000,
      }),
      expect.objectContaining({ source: "tool", observation: "Runtime disconnected", offsetMs: 10000 }),
    ]);
    expect(t.steps[1]?.action).toBeUndefined();
    expect(t.failureMode).toBe("agent_state:error");
    expect(t.metadata).toMatchObject({ finished: false, finalAgentState: "error" });
    expect(t.run.name).toBe("openhands");
  });

  it("reads the pre-#4881 extras.exit_code, and treats CmdOutputMetadata's -1 as no exit code", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-openhands-"));
    try {
      const events = [
        { id: 0, source: "user", action: "message", args: { content: "go" } },
        { id: 1, source: "agent", action: "run", args: { command: "false" } },
        { id: 2, source: "agent", cause: 1, observation: "run", content: "", extras: { command: "false", exit_code: 1, command_id: -1 } },
        { id: 3, source: "agent", action: "run", args: { command: "python -m http.server" } },
        {
          id: 4,
          source: "agent",
          cause: 3,
          observation: "run",
          content: "Serving HTTP",
          extras: { command: "python -m http.server", metadata: { exit_code: -1, pid: -1, suffix: "[still running]" } },
        },
      ];
      fs.writeFileSync(path.join(dir, "legacy.json"), JSON.stringify(events));
      const t = await readOne(path.join(dir, "legacy.json"));
      expect(t.steps.map((s) => [s.action, s.exitCode])).toEqual([
        [undefined, undefined],
        ["false", 1],
        ["python -m http.server", undefined],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an array without action events, and names the field of a malformed event", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-openhands-"));
    try {
      fs.writeFileSync(path.join(dir, "obs.json"), JSON.stringify([{ id: 1, observation: "run", content: "x" }]));
      fs.writeFileSync(
        path.join(dir, "bad.json"),
        JSON.stringify([
          { id: 0, action: "run", args: { command: "ls" } },
          { id: 1, action: "run", args: "ls" },
        ]),
      );
      expect(await readAll(path.join(dir, "obs.json"))).toEqual([
        { ok: false, issue: expect.objectContaining({ message: "no action events: not an OpenHands trajectory" }) },
      ]);
      expect(await readAll(path.join(dir, "bad.json"))).toEqual([
        { ok: false, issue: expect.objectContaining({ path: "[1].args", message: expect.stringMatching(/expected record/) }) },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
