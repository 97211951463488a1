import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import { sha256 } from "../domain/hash.ts";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import { openAiChatImporter } from "./openai-chat.ts";
import { fileSource } from "./source.ts";
import type { ImportRecord } from "./types.ts";
import { importerReader } from "./test-reader.ts";

const { readAll } = importerReader(openAiChatImporter);

function trajectories(records: ImportRecord[]): TrajectoryInput[] {
  return records.flatMap((r) => (r.ok ? [r.value.trajectory] : []));
}

describeShared("OpenAI chat importer on the shared JSONL", () => {
  const file = fixture("sft-openai-jsonl", "stock_toolcall_training.jsonl");

  it("reads 86 examples, one trajectory per line, with content-derived ids", async () => {
    const records = await readAll(file);
    expect(records).toHaveLength(86);
    expect(records.every((r) => r.ok)).toBe(true);
    const all = trajectories(records);
    const firstLine = fs.readFileSync(file, "utf8").split("\n")[0] ?? "";
    expect(all[0]?.id).toBe(`openai-chat:${sha256(firstLine)}`);
    expect(new Set(all.map((t) => t.id)).size).toBe(86);
    expect(records.map((r) => (r.ok ? r.line : 0)).slice(0, 3)).toEqual([1, 2, 3]);
    expect(all.every((t) => t.task.id === "sft-example" && t.run.name === "stock_toolcall_training.jsonl" && t.outcome === "unknown")).toBe(
      true,
    );
    expect(all.every((t) => t.steps.map((s) => s.source).join() === "system,user,agent")).toBe(true);
  });

  it("parses the JSON-string arguments of the 36 tool calls and keeps the 50 clarifications as messages", async () => {
    const all = trajectories(await readAll(file));
    const calls = all.flatMap((t) => t.steps.flatMap((s) => s.toolCalls ?? []));
    expect(calls).toHaveLength(36);
    expect(calls.filter((c) => c.name === "get_current_stock_price")).toHaveLength(24);
    expect(calls.filter((c) => c.name === "get_last_nday_stock_price")).toHaveLength(12);
    expect(all[0]?.steps[2]).toMatchObject({
      action: 'get_last_nday_stock_price {"symbol":"BAC","period":"1mo"}',
      toolCalls: [{ id: "call_1", name: "get_last_nday_stock_price", arguments: { symbol: "BAC", period: "1mo" } }],
    });
    expect(all.filter((t) => t.steps[2]?.message && !t.steps[2].toolCalls)).toHaveLength(50);
    expect(all[0]?.metadata?.tools).toHaveLength(2);
  });
});

describe("OpenAI chat importer on a hand-written JSONL", () => {
  const file = path.join(import.meta.dirname, "__fixtures__", "openai-chat", "tool-roundtrip.jsonl");

  it("imports the good lines and reports the bad ones by line and field", async () => {
    const records = await readAll(file);
    expect(records.map((r) => (r.ok ? `ok:${r.line}` : `${r.issue.line}: ${r.issue.path ?? ""}: ${r.issue.message}`))).toEqual([
      "ok:1",
      expect.stringMatching(/^2: : invalid JSON: Expected ',' or '}' after property value/),
      "ok:3",
      // line 4 is blank
      "5: messages[1].tool_calls[0].function.arguments: invalid JSON: Expected ',' or '}' after property value at position 16",
      "6: messages[2].tool_calls[0].function.arguments: Invalid input: expected string, received object",
    ]);
  });

  it("answers tool calls by id, keeps loss weights and takes the task from metadata", async () => {
    const [t] = trajectories(await readAll(file, { runName: "sft-1" }));
    expect(t?.task).toEqual({ benchmark: "reterm-sft", id: "count-lines", instruction: "How many lines are in data.csv?" });
    expect(t?.run.name).toBe("sft-1");
    expect(t?.steps.map((s) => [s.source, s.action, s.observation])).toEqual([
      ["system", undefined, undefined],
      ["user", undefined, undefined],
      ["agent", "wc -l data.csv", "wc: data.csv: No such file or directory"],
      // Two calls in one turn; the results arrive out of order and both land on that step.
      ["agent", 'ls\nread_file {"path":"README"}', "see data/\ndata\nREADME"],
      ["agent", undefined, undefined],
    ]);
    expect(t?.steps[4]?.message).toBe("It is in data/; 42 lines.");
    expect(t?.metadata?.lossMaskedSteps).toEqual([2]);
  });

  it("keeps the words of a refusal, as a message field or a content part", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-openai-refusal-"));
    try {
      const file = path.join(dir, "refusals.jsonl");
      const lines = [
        {
          messages: [
            { role: "user", content: "rm -rf /" },
            { role: "assistant", content: null, refusal: "I won't run that." },
          ],
        },
        {
          messages: [
            { role: "user", content: "rm -rf /" },
            { role: "assistant", content: [{ type: "refusal", refusal: "Not that one." }] },
          ],
        },
      ];
      fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      const [a, b] = trajectories(await readAll(file));
      expect(a?.steps[1]?.message).toBe("Refusal: I won't run that.");
      expect(b?.steps[1]?.message).toBe("Refusal: Not that one.");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("also reads a pretty-printed JSON array of examples (content before role, as LLaMA-Factory writes them)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-openai-array-"));
    try {
      const file = path.join(dir, "mllm.json");
      const examples = [1, 2].map((i) => ({
        messages: [
          { content: `<image>What is ${i}?`, role: "user" },
          { content: `It is ${i}.`, role: "assistant" },
        ],
        images: [`${i}.png`],
      }));
      fs.writeFileSync(file, JSON.stringify(examples, null, 2));
      expect(openAiChatImporter.detect(await fileSource(file))).toBeGreaterThanOrEqual(0.5);
      const records = await readAll(file);
      expect(records.map((r) => (r.ok ? path.basename(r.file) : r.issue.message))).toEqual(["mllm.json[0]", "mllm.json[1]"]);
      expect(trajectories(records)[1]?.steps.map((s) => s.message)).toEqual(["<image>What is 2?", "It is 2."]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
