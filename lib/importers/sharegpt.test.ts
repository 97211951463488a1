import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import { shareGptImporter } from "./sharegpt.ts";
import type { ImportRecord } from "./types.ts";
import { importerReader } from "./test-reader.ts";

const { readAll } = importerReader(shareGptImporter);

function trajectories(records: ImportRecord[]): TrajectoryInput[] {
  return records.flatMap((r) => (r.ok ? [r.value.trajectory] : []));
}

describeShared("ShareGPT importer on the shared glaive demo", () => {
  it("reads all 300 records of the JSON array; the 35 repeated records share their content-derived id", async () => {
    const records = await readAll(fixture("sft-sharegpt", "glaive_toolcall_en_demo.json"));
    expect(records).toHaveLength(300);
    const all = trajectories(records);
    expect(all).toHaveLength(300);
    expect(new Set(all.map((t) => t.id)).size).toBe(265);
    expect(
      all.every((t) => t.id?.startsWith("sharegpt:") && t.task.id === "sft-example" && t.run.name === "glaive_toolcall_en_demo.json"),
    ).toBe(true);
    // Array items are named by their index, since a JSON array has no useful line numbers.
    expect(records[5]?.ok ? records[5].file : "").toMatch(/glaive_toolcall_en_demo\.json\[5\]$/);
    expect(all.reduce((n, t) => n + t.steps.length, 0)).toBe(1703);
  });

  it("turns function_call + observation into one agent step with the parsed call and its result", async () => {
    const all = trajectories(await readAll(fixture("sft-sharegpt", "glaive_toolcall_en_demo.json")));
    const first = all[0];
    expect(first?.steps.map((s) => s.source)).toEqual(["user", "agent", "user", "agent", "agent", "user", "agent"]);
    expect(first?.steps[3]).toMatchObject({
      action: 'search_recipes {"ingredients":["chicken","bell peppers","rice"]}',
      toolCalls: [{ name: "search_recipes", arguments: { ingredients: ["chicken", "bell peppers", "rice"] } }],
    });
    expect(first?.steps[3]?.observation).toMatch(/^\{"recipes": \[\{"name": "Chicken and Bell Pepper Stir Fry"/);
    expect(first?.metadata?.tools).toEqual([expect.objectContaining({ name: "search_recipes" })]);
    const calls = all.flatMap((t) => t.steps.flatMap((s) => s.toolCalls ?? []));
    expect(calls).toHaveLength(211);
    expect(calls.filter((c) => c.name === "calculate_distance")).toHaveLength(16);
    expect(all.flatMap((t) => t.steps).filter((s) => s.toolCalls && s.observation !== undefined)).toHaveLength(211);
  });
});

describe("ShareGPT importer on a hand-written JSONL", () => {
  const file = path.join(import.meta.dirname, "__fixtures__", "sharegpt", "mixed.jsonl");

  it("merges a gpt turn with the function_call that follows it and reads the system field", async () => {
    const [t] = trajectories(await readAll(file));
    expect(t?.steps.map((s) => [s.source, s.message, s.action, s.observation])).toEqual([
      ["system", "You can call tools.", undefined, undefined],
      ["user", "Weather in Paris?", undefined, undefined],
      ["agent", "Let me check.", 'get_weather {"city":"Paris"}', '{"temp": 21}'],
      ["agent", "21 degrees.", undefined, undefined],
    ]);
    // arguments given as a JSON string inside the call are parsed too.
    expect(t?.steps[2]?.toolCalls).toEqual([{ name: "get_weather", arguments: { city: "Paris" } }]);
  });

  it("reports a bad function_call and an unknown speaker by line and field", async () => {
    const records = await readAll(file);
    expect(records.map((r) => (r.ok ? "ok" : `${r.issue.line}: ${r.issue.path}: ${r.issue.message.split(":")[0]}`))).toEqual([
      "ok",
      "2: conversations[1].value: invalid JSON",
      "3: conversations[1].from: Invalid option",
    ]);
  });
});
