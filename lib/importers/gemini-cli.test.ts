import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileSource } from "./source.ts";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { geminiCliImporter } from "./gemini-cli.ts";
import { importerReader } from "./test-reader.ts";

const { readAll, readOne } = importerReader(geminiCliImporter);

describeShared("Gemini CLI importer on the shared session", () => {
  it("reads the two-message session with tokens, model and timing", async () => {
    const t = await readOne(fixture("gemini-cli", "gemini-cli-trajectory.json"));
    expect(t.steps).toEqual([
      {
        source: "user",
        timestamp: "2025-10-10T06:59:39.894Z",
        offsetMs: 0,
        message: 'Create a file called hello.txt with "Hello, world!" as the content.\n',
      },
      {
        source: "agent",
        timestamp: "2025-10-10T06:59:41.751Z",
        offsetMs: 1857,
        message: 'Okay, I\'ve created the file `/app/hello.txt` with the content "Hello, world!".',
        promptTokens: 5915,
        completionTokens: 24,
      },
    ]);
    expect(t.run).toMatchObject({ name: "gemini-cli/gemini-2.0-flash", model: "gemini-2.0-flash", agent: "gemini-cli" });
    expect([t.inputTokens, t.outputTokens]).toEqual([5915, 24]);
    expect([t.startedAt, t.endedAt]).toEqual(["2025-10-10T06:59:39.894Z", "2025-10-10T06:59:41.751Z"]);
    expect(t.metadata).toMatchObject({ sessionId: "cdd63974-c2a3-4f1c-931d-cce1db22ec03" });
    expect(t.outcome).toBe("unknown");
  });
});

describe("Gemini CLI importer on hand-written sessions", () => {
  const file = path.join(import.meta.dirname, "__fixtures__", "gemini-cli", "tool-calls.json");

  it("reads thoughts, tool calls with results (a failed one flagged) and notices", async () => {
    const t = await readOne(file, { runName: "gem-run" });
    expect(t.run.name).toBe("gem-run");
    expect(t.steps.map((s) => s.source)).toEqual(["user", "agent", "system"]);
    expect(t.steps[1]).toMatchObject({
      reasoning: "**Plan** use ls",
      action: 'ls -a\nread_file {"path":"missing.txt"}',
      observation: ".\n..\nnotes.txt\nFile not found\n(read_file failed)",
      offsetMs: 3000,
    });
    expect(t.steps[1]?.toolCalls).toEqual([
      { id: "tc1", name: "run_shell_command", arguments: { command: "ls -a" } },
      { id: "tc2", name: "read_file", arguments: { path: "missing.txt" } },
    ]);
    expect(t.steps[2]?.message).toBe("Request cancelled.");
  });

  it("names the missing field of a session without messages", async () => {
    const records = await readAll(path.join(import.meta.dirname, "__fixtures__", "swe-agent", "exit-cost.traj"));
    expect(records).toEqual([{ ok: false, issue: expect.objectContaining({ path: "sessionId" }) }]);
  });
});

describe("Gemini CLI JSONL sessions (current layout: metadata line, messages, $set and $rewindTo updates)", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-gemini-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const write = (name: string, records: unknown[]) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
    return file;
  };
  const meta = {
    sessionId: "5e7a0c1d-0000-4000-8000-000000000001",
    projectHash: "ab12",
    startTime: "2026-01-05T10:00:00.000Z",
    lastUpdated: "2026-01-05T10:00:00.000Z",
    kind: "main",
  };
  const user = { id: "u1", timestamp: "2026-01-05T10:00:01.000Z", type: "user", content: [{ text: "list the files" }] };
  const call = {
    id: "g1",
    timestamp: "2026-01-05T10:00:03.000Z",
    type: "gemini",
    content: "",
    model: "gemini-2.5-pro",
    toolCalls: [{ id: "c1", name: "run_shell_command", args: { command: "ls" }, status: "success", resultDisplay: "a.txt\nb.txt" }],
  };

  it("applies updates the way Gemini CLI reloads a session: a re-appended message replaces it, $set updates metadata, $rewindTo drops", async () => {
    const file = write("session-2026-01-05T10-00-5e7a0c1d.jsonl", [
      meta,
      user,
      { $set: { lastUpdated: "2026-01-05T10:00:01.000Z" } },
      { ...call, tokens: null },
      { id: "g2", timestamp: "2026-01-05T10:00:04.000Z", type: "gemini", content: "an answer that was rewound" },
      { $rewindTo: "g2" },
      // The same message again, now with its token counts: it replaces the first version in place.
      { ...call, tokens: { input: 900, output: 12, cached: 0, thoughts: 0, tool: 0, total: 912 } },
      { id: "g3", timestamp: "2026-01-05T10:00:05.000Z", type: "gemini", content: "There are two files." },
      { $set: { lastUpdated: "2026-01-05T10:00:05.000Z", summary: "list files" } },
    ]);
    expect(geminiCliImporter.detect(await fileSource(file))).toBeGreaterThan(0.9);
    const t = await readOne(file);
    expect(t.task.id).toBe("session-2026-01-05T10-00-5e7a0c1d");
    expect(t.steps.map((s) => [s.source, s.action ?? s.message])).toEqual([
      ["user", "list the files"],
      ["agent", "ls"],
      ["agent", "There are two files."],
    ]);
    expect(t.steps[1]).toMatchObject({ observation: "a.txt\nb.txt", promptTokens: 900, completionTokens: 12 });
    expect([t.startedAt, t.endedAt]).toEqual(["2026-01-05T10:00:00.000Z", "2026-01-05T10:00:05.000Z"]);
    expect(t.run).toMatchObject({ model: "gemini-2.5-pro", agent: "gemini-cli" });
  });

  it("a bad line is a warning kept with the session, naming file and line; a message that fails its schema names its line", async () => {
    const file = write("session-b.jsonl", [meta, user, "{not json", call]);
    const [rec, ...rest] = await readAll(file);
    expect(rest).toEqual([]);
    expect(rec).toMatchObject({
      ok: true,
      value: { warnings: [{ file: expect.stringMatching(/session-b\.jsonl$/), line: 3, message: "invalid JSON line; skipped" }] },
    });

    const bad = write("session-c.jsonl", [meta, user, { id: "g9", type: 7 }]);
    expect(await readAll(bad)).toEqual([
      {
        ok: false,
        issue: expect.objectContaining({ file: expect.stringMatching(/session-c\.jsonl$/), line: 3, path: "messages[1].type" }),
      },
    ]);
  });
});
