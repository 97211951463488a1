// Writers over hand-built items: row schemas, terminal commands as tool calls, CSV quoting, the card's escaping.
import { describe, expect, it } from "vitest";
import type { StoredTrajectory, Provenance } from "../domain/curation/types.ts";
import { toOpenAiRow } from "./openai.ts";
import { toShareGptRow } from "./sharegpt.ts";
import { toTrlRow } from "./trl.ts";
import { toAxolotlRow } from "./axolotl.ts";
import { resolveOptions } from "./chat/options.ts";
import { ChatStats } from "./chat/stats.ts";
import { terminalTextAsSeen } from "../domain/ansi.ts";
import { createNativeWriter, nativeRowSchema } from "./native.ts";
import { labelsCsvWriter } from "./labels.ts";
import { CARD_MAX_IDS, datasetCard } from "./card.ts";
import { buildManifest } from "../domain/curation/manifest.ts";

const parent: StoredTrajectory = {
  dbId: "p1",
  parentDbId: null,
  errorCategory: "command-error",
  labels: [],
  trajectory: {
    format: "reterm.trajectory.v1",
    id: "p1",
    task: { benchmark: "tb2", id: "fix-csv", instruction: "Fix the parser" },
    run: { name: "r1" },
    outcome: "failed",
    steps: [
      { source: "user", message: "Fix the parser" },
      { source: "agent", reasoning: "run tests", action: "pytest -q", observation: "1 failed", exitCode: 1 },
      { source: "agent", reasoning: "give up", action: "echo done", observation: "done" },
    ],
  },
};
const attempt: StoredTrajectory = {
  dbId: "a1",
  parentDbId: "p1",
  errorCategory: null,
  labels: [
    {
      schema: "recovery-quality",
      annotator: "ann",
      targetType: "attempt",
      stepStart: null,
      stepEnd: null,
      forkStepIndex: null,
      value: "3",
      comment: 'a, "b"',
      createdAt: "2026-10-01T00:00:00.000Z",
      updatedAt: "2026-10-01T00:00:00.000Z",
    },
  ],
  trajectory: {
    format: "reterm.trajectory.v1",
    id: "a1",
    task: { benchmark: "tb2", id: "fix-csv" },
    run: { name: "r1" },
    outcome: "passed",
    reward: 1,
    fork: { parentId: "p1", stepIndex: 1, attemptIndex: 0 },
    steps: [
      { source: "user", message: "Fix the parser", isCopiedContext: true },
      { source: "agent", reasoning: "run tests", action: "pytest -q", observation: "1 failed", exitCode: 1, isCopiedContext: true },
      {
        source: "agent",
        reasoning: "use csv module",
        action: "sed -i s/split/csv/ parse.py && pytest -q",
        observation: "6 passed",
        exitCode: 0,
      },
    ],
  },
};
const provenance: Provenance = {
  trajectoryId: "a1",
  externalId: null,
  task: "fix-csv",
  benchmark: "tb2",
  run: "r1",
  kind: "segment",
  parentTrajectoryId: "p1",
  forkStep: 1,
  attemptIndex: 0,
  outcome: "passed",
  reward: 1,
  labels: [],
  dataset: "d",
  version: 1,
  datasetHash: "h",
};

type Msg = {
  role: string;
  content?: string;
  weight?: number;
  train?: boolean;
  tool_calls?: { id: string; function: { name: string; arguments: unknown } }[];
  tool_call_id?: string;
};

describe("chat writers", () => {
  const turns = resolveOptions("openai", undefined);
  it("writes a recovery segment as context (weight 0) then the recovery (weight 1), ending on the agent's last action", () => {
    const stats = new ChatStats();
    const row = toOpenAiRow({ item: attempt, parent, provenance }, turns, stats) as {
      messages: Msg[];
      tools: { function: { name: string } }[];
    };
    // The recovery's output ("6 passed") came after its last action: a trailing tool output teaches nothing.
    expect(row.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const [, ctx, ctxOut, rec] = row.messages;
    expect(ctx).toMatchObject({
      role: "assistant",
      weight: 0,
      tool_calls: [{ function: { name: "terminal", arguments: JSON.stringify({ keystrokes: "pytest -q" }) } }],
    });
    expect(ctxOut).toMatchObject({ role: "tool", content: "1 failed", tool_call_id: ctx!.tool_calls![0]!.id });
    expect(rec).toMatchObject({ role: "assistant", content: "use csv module", weight: 1 });
    expect(row.tools.map((t) => t.function.name)).toEqual(["terminal"]);
    expect(Object.keys(row)).toEqual(["messages", "tools", "parallel_tool_calls"]);
    expect(stats).toMatchObject({ rows: 1, droppedUntrained: 0 });
  });

  it("puts the failed context in TRL's prompt and the recovery in its completion, arguments as objects", () => {
    const row = toTrlRow({ item: attempt, parent, provenance }, turns, new ChatStats()) as { prompt: Msg[]; completion: Msg[] };
    expect(row.prompt.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(row.completion).toHaveLength(1);
    expect(row.completion[0]!.tool_calls![0]!.function.arguments).toEqual({ keystrokes: "sed -i s/split/csv/ parse.py && pytest -q" });
  });

  it("marks axolotl messages trained only on the recovery", () => {
    const row = toAxolotlRow({ item: attempt, parent, provenance }, turns, new ChatStats()) as { messages: Msg[] };
    expect(row.messages.map((m) => m.train)).toEqual([false, false, false, true]);
  });

  it("writes ShareGPT in strict alternation with the failed context folded into the first human turn", () => {
    const row = toShareGptRow({ item: attempt, parent, provenance }, resolveOptions("sharegpt", undefined), new ChatStats()) as {
      conversations: { from: string; value: string }[];
      tools: string;
    };
    expect(row.conversations.map((c) => c.from)).toEqual(["human", "function_call"]);
    expect(row.conversations[0]!.value).toContain("[call] terminal");
    expect(row.conversations[1]!.value).toBe(
      `<think>use csv module</think>${JSON.stringify({ name: "terminal", arguments: { keystrokes: "sed -i s/split/csv/ parse.py && pytest -q" } })}`,
    );
    expect(JSON.parse(row.tools)).toEqual([expect.objectContaining({ name: "terminal" })]);
    const asTurns = toShareGptRow(
      { item: attempt, parent, provenance },
      { ...resolveOptions("sharegpt", undefined), context: "turns" },
      new ChatStats(),
    ) as { conversations: { from: string }[] };
    expect(asTurns.conversations.map((c) => c.from)).toEqual(["human", "function_call", "observation", "function_call"]);
  });

  it("drops a row with nothing to train and counts it; infers undeclared tools from their calls", () => {
    const stats = new ChatStats();
    const onlyContext = { ...attempt, trajectory: { ...attempt.trajectory, steps: attempt.trajectory.steps.slice(0, 2) } };
    expect(toOpenAiRow({ item: onlyContext, parent, provenance }, turns, stats)).toBeNull();
    expect(stats.droppedUntrained).toBe(1);
    const called = {
      ...attempt,
      trajectory: {
        ...attempt.trajectory,
        steps: [
          { source: "agent" as const, toolCalls: [{ id: "x", name: "grep", arguments: '{"pattern":"a","n":3}' }], observation: "hit" },
          { source: "agent" as const, message: "found" },
        ],
      },
    };
    const s2 = new ChatStats();
    const row = toOpenAiRow({ item: called, parent: null, provenance }, turns, s2) as {
      tools: { function: { name: string; parameters: unknown } }[];
    };
    expect(row.tools[0]!.function).toMatchObject({
      name: "grep",
      parameters: { type: "object", properties: { pattern: { type: "string" }, n: { type: "integer" } }, required: ["pattern", "n"] },
    });
    expect(s2.tools.get("grep")).toBe("inferred");
  });

  it("renders terminal output as seen: escapes interpreted, overwrites resolved, trailing blank lines trimmed; plain text kept exactly", () => {
    expect(terminalTextAsSeen("\u001b[1;32mroot@box\u001b[0m# ls\r\nfile\r\n10%\r100%\r\n\r\n")).toBe("root@box# ls\nfile\n100%");
    expect(terminalTextAsSeen("exactly this\n\n")).toBe("exactly this\n\n");
  });
});

describe("native writer", () => {
  it("writes a segment's parent once, before its first attempt, and rows validate against the native schema", () => {
    const w = createNativeWriter();
    const lines = [...w.lines({ item: attempt, parent, provenance }), ...w.lines({ item: attempt, parent, provenance })];
    expect(lines).toHaveLength(2);
    const rows = lines.map((l) => nativeRowSchema.parse(JSON.parse(l)));
    expect(rows.map((r) => [r.id, r.provenance.role])).toEqual([
      ["p1", "context"],
      ["a1", "item"],
    ]);
  });
});

describe("labels writer", () => {
  // Field quoting and the formula guard are lib/domain/csv.ts's (tested there); here, that the writer uses them.
  it("quotes CSV fields per RFC 4180", () => {
    const [line] = labelsCsvWriter.lines({ item: attempt, parent, provenance });
    expect(line).toContain('"a, ""b"""');
    expect(line!.endsWith("\r\n")).toBe(true);
  });
  it("neutralizes spreadsheet formulas (OWASP CSV injection)", () => {
    const evil = { ...attempt, labels: attempt.labels.map((l) => ({ ...l, value: "=cmd|' /C calc'!A0", comment: "@x" })) };
    const [line] = labelsCsvWriter.lines({ item: evil, parent, provenance });
    expect(line).toContain(`"'=cmd|' /C calc'!A0"`);
    expect(line).toContain(`"'@x"`);
    expect(line).not.toMatch(/(^|,)[=+\-@]/);
  });
});

describe("dataset card", () => {
  it("renders untrusted names as inline code and keeps the manifest deterministic", () => {
    const manifest = buildManifest(
      [
        {
          trajectoryId: "a1",
          kind: "segment",
          task: "tb2/<script>`x`|",
          run: "r1",
          errorCategory: null,
          outcome: "passed",
          tokens: 10,
          labels: [],
        },
      ],
      "tok",
      null,
    );
    const card = datasetCard({
      dataset: "d",
      description: "<b>hi</b>",
      version: 1,
      contentHash: "h",
      frozenAt: null,
      format: "openai",
      dataFile: "d.jsonl",
      manifest,
      rules: null,
    });
    // Inside a code span CommonMark shows HTML as text; backticks and pipes that could end the span or the cell are gone.
    expect(card).toContain("| `tb2/<script> x  ` | 1 |");
    expect(card).not.toContain("<b>");
    const evil = datasetCard({
      dataset: "d",
      description: "![x](http://t/p.png) [a](javascript:x) <img src=x>\n# H",
      version: 1,
      contentHash: "h",
      frozenAt: null,
      format: "openai",
      dataFile: "d.jsonl",
      manifest,
      rules: null,
    });
    expect(evil).toContain("\\!\\[x\\]\\(http\\:\\/\\/t\\/p\\.png\\)");
    expect(evil).toContain("\\<img src\\=x\\>");
    expect(evil).toContain("\n\\# H");
    expect(
      datasetCard({
        dataset: "d",
        description: null,
        version: 1,
        contentHash: "h",
        frozenAt: null,
        format: "openai",
        dataFile: "d.jsonl",
        manifest,
        rules: null,
      }),
    ).toBe(
      datasetCard({
        dataset: "d",
        description: null,
        version: 1,
        contentHash: "h",
        frozenAt: null,
        format: "openai",
        dataFile: "d.jsonl",
        manifest,
        rules: null,
      }),
    );
  });

  it("summarizes a long selection in its rules and prints a short one whole", () => {
    const manifest = buildManifest([], "tok", null);
    const ids = Array.from({ length: 1_000 }, (_, i) => `traj-${i}`);
    const card = datasetCard({
      dataset: "d",
      description: null,
      version: 1,
      contentHash: "h",
      frozenAt: null,
      format: "openai",
      dataFile: "d.jsonl",
      manifest,
      rules: { source: "selection", ids },
    });
    expect(card).toContain(`"traj-${CARD_MAX_IDS - 1}"`);
    expect(card).not.toContain(`"traj-${CARD_MAX_IDS}"`);
    expect(card).toContain(`… and ${1_000 - CARD_MAX_IDS} more (1000 in all; every row's provenance.trajectoryId)`);
    expect(card).toContain('"source": "selection"');
    const few = datasetCard({
      dataset: "d",
      description: null,
      version: 1,
      contentHash: "h",
      frozenAt: null,
      format: "openai",
      dataFile: "d.jsonl",
      manifest,
      rules: { source: "selection", ids: ids.slice(0, 3) },
    });
    expect(few).toContain(JSON.stringify({ source: "selection", ids: ids.slice(0, 3) }, null, 2));
  });
});
