// Cross-cutting checks for the agent-log and SFT importers: detection over every shared fixture, and robustness
// against empty, binary, truncated, partly broken and very long inputs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeShared, fixture, SHARED_FIXTURES } from "../../tests/helpers/shared-fixtures.ts";
import { generateTrajectories } from "../generator/generate.ts";
import { geminiCliImporter } from "./gemini-cli.ts";
import { harborTracesImporter } from "./harbor-traces.ts";
import { inspectImporter } from "./inspect.ts";
import { miniSweAgentImporter } from "./mini-swe-agent.ts";
import { openAiChatImporter } from "./openai-chat.ts";
import { openHandsImporter } from "./openhands.ts";
import { shareGptImporter } from "./sharegpt.ts";
import { fileSource } from "./source.ts";
import { sweAgentImporter } from "./swe-agent.ts";
import type { Importer, ImportRecord } from "./types.ts";

const MINE: Importer[] = [
  sweAgentImporter,
  miniSweAgentImporter,
  openHandsImporter,
  inspectImporter,
  geminiCliImporter,
  openAiChatImporter,
  shareGptImporter,
  harborTracesImporter,
];

/** Shared fixture folder → the importer that must claim every file in it. */
const EXPECTED: Record<string, Importer> = {
  "sweagent-traj": sweAgentImporter,
  "mini-swe-agent": miniSweAgentImporter,
  "openhands-events": openHandsImporter,
  "inspect-eval": inspectImporter,
  "gemini-cli": geminiCliImporter,
  "sft-openai-jsonl": openAiChatImporter,
  "sft-sharegpt": shareGptImporter,
  "harbor-traces": harborTracesImporter,
};

const OWN_FIXTURES: Record<string, Importer> = {
  "swe-agent": sweAgentImporter,
  "mini-swe-agent": miniSweAgentImporter,
  openhands: openHandsImporter,
  inspect: inspectImporter,
  "gemini-cli": geminiCliImporter,
  "openai-chat": openAiChatImporter,
  sharegpt: shareGptImporter,
  "harbor-traces": harborTracesImporter,
};

function filesIn(dir: string): string[] {
  return fs.readdirSync(dir).map((f) => path.join(dir, f));
}

async function scores(file: string): Promise<Map<Importer, number>> {
  const src = await fileSource(file);
  return new Map(MINE.map((imp) => [imp, imp.detect(src)]));
}

async function readAll(importer: Importer, file: string): Promise<ImportRecord[]> {
  const out: ImportRecord[] = [];
  for await (const r of importer.read(await fileSource(file), {})) out.push(r);
  return out;
}

describeShared("detection over every shared fixture", () => {
  const cases = Object.entries(EXPECTED).flatMap(([folder, importer]) =>
    filesIn(path.join(SHARED_FIXTURES, folder)).map((file) => [path.relative(SHARED_FIXTURES, file), file, importer] as const),
  );

  it.each(cases)("%s is claimed by the right importer, clearly ahead of the others", async (_name, file, expected) => {
    const s = await scores(file);
    const mine = s.get(expected) ?? 0;
    expect(mine).toBeGreaterThanOrEqual(0.8);
    for (const [imp, score] of s)
      if (imp !== expected) expect(score, `${imp.format} scored ${score}`).toBeLessThanOrEqual(Math.min(0.3, mine - 0.5));
  });

  it.each([...filesIn(fixture("atif")), ...filesIn(fixture("asciicast"))].map((f) => [path.relative(SHARED_FIXTURES, f), f]))(
    "%s is not claimed by any of these importers",
    async (_name, file) => {
      const s = await scores(file);
      expect(Object.fromEntries([...s].filter(([, v]) => v !== 0).map(([imp, v]) => [imp.format, v]))).toEqual({});
    },
  );
});

describe("detection over the hand-written fixtures", () => {
  const root = path.join(import.meta.dirname, "__fixtures__");
  const cases = Object.entries(OWN_FIXTURES).flatMap(([folder, importer]) =>
    filesIn(path.join(root, folder)).map((file) => [`${folder}/${path.basename(file)}`, file, importer] as const),
  );

  it.each(cases)("%s", async (_name, file, expected) => {
    const s = await scores(file);
    const best = [...s].sort((a, b) => b[1] - a[1])[0];
    expect(best?.[0].format).toBe(expected.format);
    expect(best?.[1]).toBeGreaterThanOrEqual(0.8);
  });
});

describe("detection leaves the project's native format alone", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-agent-native-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Without the optional "format" marker, native steps ({source: "agent", action: …}) resemble OpenHands events.
  const trajectories = [...generateTrajectories({ count: 3, seed: 7, recordingRate: 0 })].map(({ format: _format, ...rest }) => rest);

  it.each([
    ["array.json", JSON.stringify(trajectories, null, 2)],
    ["lines.jsonl", trajectories.map((t) => JSON.stringify(t)).join("\n")],
  ])("%s", async (name, content) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    const s = await scores(file);
    expect(Object.fromEntries([...s].filter(([, v]) => v > 0).map(([imp, v]) => [imp.format, v]))).toEqual({});
  });
});

describe("robustness: bad input gives clear issues, never a throw or a hang", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-agent-formats-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string | Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const ownFixture = (folder: string) => filesIn(path.join(import.meta.dirname, "__fixtures__", folder))[0] ?? "";

  const empty = write("empty.json", "");
  // Deterministic garbage with a NUL byte up front, as in any binary file.
  const garbage = Buffer.alloc(64 * 1024);
  for (let i = 1, x = 12345; i < garbage.length; i++) garbage[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  const binary = write("garbage.bin", garbage);
  const longGarbage = write("long-garbage.json", "A".repeat(10 * 1024 * 1024));
  const longWrongShape = write("long-wrong.json", JSON.stringify({ unrelated: "x".repeat(10 * 1024 * 1024) }));

  it.each(MINE.map((imp) => [imp.format, imp]))("%s: empty file", async (_f, imp) => {
    expect(await readAll(imp, empty)).toEqual([{ ok: false, issue: expect.objectContaining({ message: "file is empty" }) }]);
  });

  it.each(MINE.map((imp) => [imp.format, imp]))("%s: binary garbage", async (_f, imp) => {
    const records = await readAll(imp, binary);
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({ ok: false, issue: expect.objectContaining({ message: expect.stringMatching(/binary/) }) });
  });

  it.each(MINE.map((imp) => [imp.format, imp]))("%s: one 10 MB line of garbage, and one of the wrong shape", async (_f, imp) => {
    const started = Date.now();
    const garbageRecords = await readAll(imp, longGarbage);
    expect(garbageRecords).toEqual([
      { ok: false, issue: expect.objectContaining({ message: expect.stringMatching(/^invalid JSON: Unexpected token 'A'/) }) },
    ]);
    const wrong = await readAll(imp, longWrongShape);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]?.ok).toBe(false);
    if (!wrong[0]?.ok) expect(wrong[0]?.issue.message.length).toBeLessThan(300);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it.each([
    ["swe-agent", sweAgentImporter],
    ["mini-swe-agent", miniSweAgentImporter],
    ["openhands", openHandsImporter],
    ["inspect", inspectImporter],
    ["gemini-cli", geminiCliImporter],
  ] as const)("%s: truncated JSON names the line of the break", async (folder, imp) => {
    const text = fs.readFileSync(ownFixture(folder), "utf8");
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    const file = write(`truncated-${folder}.json`, cut);
    const records = await readAll(imp, file);
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({ ok: false, issue: expect.objectContaining({ message: expect.stringMatching(/^invalid JSON: /) }) });
    if (!records[0]?.ok && records[0]?.issue.line !== undefined) expect(records[0].issue.line).toBe(cut.split("\n").length);
  });

  const jsonlLines: [string, Importer, (i: number) => string][] = [
    [
      "openai-chat",
      openAiChatImporter,
      (i) =>
        JSON.stringify({
          messages: [
            { role: "user", content: `q${i}` },
            { role: "assistant", content: `a${i}` },
          ],
        }),
    ],
    [
      "sharegpt",
      shareGptImporter,
      (i) =>
        JSON.stringify({
          conversations: [
            { from: "human", value: `q${i}` },
            { from: "gpt", value: `a${i}` },
          ],
        }),
    ],
    [
      "harbor-traces",
      harborTracesImporter,
      (i) =>
        JSON.stringify({
          conversations: [
            { role: "user", content: `q${i}` },
            { role: "assistant", content: `a${i}` },
          ],
          trial_name: `t${i}`,
          result: "1.0",
        }),
    ],
  ];

  it.each(jsonlLines)("%s: one bad line among good ones is reported with its number, the rest import", async (name, imp, line) => {
    const lines = [line(1), line(2), line(3).slice(0, 20), line(4), line(5)];
    const records = await readAll(imp, write(`${name}-one-bad.jsonl`, lines.join("\n") + "\n"));
    expect(records.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.issue.line))).toEqual([3]);
    expect(records.filter((r) => r.ok)).toHaveLength(4);
  });

  it.each(jsonlLines)("%s: a file cut mid-line keeps the complete lines", async (name, imp, line) => {
    const text = [line(1), line(2), line(3)].join("\n");
    const records = await readAll(imp, write(`${name}-cut.jsonl`, text.slice(0, text.length - 7)));
    expect(records.map((r) => (r.ok ? "ok" : `issue:${r.issue.line}`)).sort()).toEqual(["issue:3", "ok", "ok"]);
  });

  it.each(jsonlLines)("%s: a first line longer than the 64 KiB sniffing head, behind a byte-order mark", async (name, imp, line) => {
    const long = line(1).replace('"q1"', JSON.stringify("q".repeat(100 * 1024)));
    const file = write(`${name}-long-first.jsonl`, "\uFEFF" + [long, line(2), line(3)].join("\n") + "\n");
    const src = await fileSource(file);
    expect(imp.detect(src)).toBeGreaterThanOrEqual(0.5);
    const records = await readAll(imp, file);
    expect(records.map((r) => (r.ok ? r.line : r.issue.message))).toEqual([1, 2, 3]);
    expect(records[0]?.ok ? records[0].value.trajectory.steps[0]?.message?.length : 0).toBe(100 * 1024);
  });

  it.each(jsonlLines)("%s: a 10 MB valid line imports", async (name, imp) => {
    const big = "y".repeat(10 * 1024 * 1024);
    const row =
      name === "openai-chat"
        ? { messages: [{ role: "user", content: big }] }
        : name === "sharegpt"
          ? { conversations: [{ from: "human", value: big }] }
          : { conversations: [{ role: "user", content: big }], trial_name: "big" };
    const records = await readAll(imp, write(`${name}-big.jsonl`, JSON.stringify(row) + "\n"));
    expect(records).toHaveLength(1);
    expect(records[0]?.ok ? records[0].value.trajectory.steps[0]?.message?.length : 0).toBe(big.length);
  });

  it("stops early on a long run of unreadable lines instead of reporting each", async () => {
    const records = await readAll(openAiChatImporter, write("prose.jsonl", "this is not json\n".repeat(10_000)));
    expect(records).toHaveLength(51);
    expect(records.at(-1)).toEqual({
      ok: false,
      issue: expect.objectContaining({ message: "stopped after 50 unreadable lines: this does not look like JSONL" }),
    });
  });
});
