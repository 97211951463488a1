// The dataset card (README.md) written beside the data: what the rows are, how to load them, the manifest and the
// provenance fields. Pure: the same version and format give the same bytes. Untrusted names are rendered as code.
import type { Manifest } from "../domain/curation/manifest.ts";
import type { ExportFormat } from "../domain/curation/types.ts";
import { TOKENIZER_NAME } from "../domain/curation/tokens.ts";
import type { ExportOptions } from "./chat/options.ts";
import type { ChatStats } from "./chat/stats.ts";
import { DATASET_INFO_FILE, provenanceFile } from "./registry.ts";

export interface CardInput {
  dataset: string;
  description: string | null;
  version: number | null;
  contentHash: string | null;
  frozenAt: string | null;
  format: ExportFormat;
  dataFile: string;
  manifest: Manifest;
  rules: unknown;
  /** Chat formats: the options written with and what was counted while writing. */
  chat?: { options: ExportOptions; stats: ChatStats };
}

const FORMAT_TEXT: Record<ExportFormat, string> = {
  openai:
    "OpenAI fine-tuning chat JSONL: `messages` (system/user/assistant/tool; assistant `tool_calls` with JSON-string `arguments`; tool messages answer by `tool_call_id`; assistant `weight` 0/1), `tools` and `parallel_tool_calls`; nothing else. Provenance is in the sidecar, line for line.",
  trl: 'TRL / transformers conversational prompt-completion JSONL: `prompt` and `completion` (lists of messages; tool-call `arguments` are objects; tool messages carry `name`) and a `tools` column. Load with `datasets.load_dataset("json", …)` and train with SFTTrainer (completion-only loss, its default for prompt-completion rows).',
  sharegpt:
    'LLaMA-Factory ShareGPT JSONL: `conversations` ({`from`, `value`}: human/observation at odd positions, gpt/function_call at even ones, ending on gpt/function_call; a function_call value is `{"name", "arguments"}`, the assistant\'s words before it as `<think>…</think>`), `system`, `tools` (a JSON string). Registered in the `dataset_info.json` beside it.',
  axolotl:
    "axolotl `type: chat_template` JSONL: `messages` with a boolean `train` on every message (`message_field_training: train`) and a `tools` list; tool-call `arguments` are objects.",
  native:
    "ReTerm native JSONL (`reterm.trajectory.v1`): lossless trajectories with steps, recordings, fork links and labels; re-import with `npm run reterm -- import FILE`.",
  "labels-csv": "Labels as CSV, one row per label.",
  "labels-jsonl": "Labels as JSONL, one row per label.",
};

/** Inline code that cannot break out of its backticks or the table. */
const code = (s: string) => "`" + s.replace(/[`|\r\n]/g, " ") + "`";
/** Free text (the description) as literal Markdown text: CommonMark lets any ASCII punctuation be backslash-escaped,
 * so no link, image (a tracking pixel), raw HTML, heading or table can be smuggled in. */
const text = (s: string) => s.replace(/[!-/:-@[-`{-~]/g, "\\$&");
const table = (title: string, m: Record<string, number>) =>
  [`### ${title}`, "", "| value | rows |", "|---|---:|", ...Object.entries(m).map(([k, v]) => `| ${code(k)} | ${v} |`), ""].join("\n");

/** Longest id list the card prints in full; a dataset made from "select all matching" can hold 100,000. */
export const CARD_MAX_IDS = 20;

/**
 * The rules as the card shows them: a long selection is summarized (the ids are the rows' `trajectoryId`s anyway;
 * the dataset keeps the full list to rebuild from), so the card stays a page to read, not megabytes of ids.
 */
function cardRules(rules: unknown): unknown {
  if (!rules || typeof rules !== "object" || !Array.isArray((rules as { ids?: unknown }).ids)) return rules ?? null;
  const ids = (rules as { ids: unknown[] }).ids;
  if (ids.length <= CARD_MAX_IDS) return rules;
  return {
    ...rules,
    ids: [
      ...ids.slice(0, CARD_MAX_IDS),
      `… and ${ids.length - CARD_MAX_IDS} more (${ids.length} in all; every row's provenance.trajectoryId)`,
    ],
  };
}

const MASKS: Record<string, Record<ExportOptions["context"], string>> = {
  openai: {
    turns: "the failed context's assistant turns have `weight: 0`, the recovery's `weight: 1`",
    prompt:
      "the failed context is folded into the first user message (a transcript); every assistant turn left is the recovery's and has `weight: 1`",
  },
  trl: {
    turns:
      "the failed context is in `prompt`, the recovery in `completion`: SFTTrainer's completion-only loss (`completion_only_loss`, on by default for prompt-completion rows) trains only the recovery; add `assistant_only_loss=True` to leave the tool outputs inside the completion out too",
    prompt: "the failed context is folded into the first user message of `prompt` (a transcript); `completion` holds the recovery",
  },
  sharegpt: {
    turns:
      "**LLaMA-Factory has no per-turn loss mask: every gpt/function_call turn is trained, the failed context's included** (export with context `prompt`, the default, to keep it out)",
    prompt:
      "the failed context is folded into the first human turn (a transcript), so it is prompt and never trained; every gpt/function_call turn is the recovery's",
  },
  axolotl: {
    turns: "`train: false` on the failed context and on every user/tool message, `train: true` on the recovery's assistant turns",
    prompt: "the failed context is folded into the first user message (`train: false`); the recovery's assistant turns have `train: true`",
  },
};

/** What the card says about a chat export: observations, loss mask, tools, dropped rows and the token budget. */
function chatSection(format: ExportFormat, o: ExportOptions, s: ChatStats): string[] {
  const tools = [...s.tools].sort(([a], [b]) => a.localeCompare(b));
  const origin = {
    source: "defined by the source",
    inferred: "**inferred** from the recorded calls (name, argument names, JSON types)",
    builtin: "ReTerm's `terminal` tool: typed keystrokes",
  } as const;
  return [
    "## Training rows",
    "",
    `- observations: ${o.observations === "rendered" ? "**rendered**: what the agent saw — recorded observation text exactly as the source has it; terminal output with its escape sequences interpreted, carriage-return overwrites resolved and trailing blank lines trimmed" : "**raw**: the bytes as recorded, escape sequences included"}`,
    `- loss mask (recovery segments): ${MASKS[format]?.[o.context] ?? "none"}; whole trajectories have no failed context, every agent turn of theirs is trained`,
    `- every row ends on an assistant turn (a trailing tool output teaches nothing and is left out); rows written: ${s.rows}; dropped for having no trained assistant turn: ${s.droppedUntrained}`,
    o.maxTokens === null
      ? `- token budget: none (tokens counted with ${TOKENIZER_NAME})`
      : `- token budget: ${o.maxTokens} tokens per row (${TOKENIZER_NAME}, counted over message text, call arguments and tool definitions; a trainer's chat template adds its own tokens). Over budget: the oldest failed-context exchanges are removed, never the recovery — truncated ${s.truncated} rows; rows whose recovery alone is over budget are dropped — dropped ${s.droppedOverBudget} rows`,
    ...(format === "sharegpt"
      ? [`- ${code(DATASET_INFO_FILE)} beside the data registers it for LLaMA-Factory (\`formatting: sharegpt\`, columns and tags)`]
      : []),
    "",
    "### Tools declared",
    "",
    ...(tools.length
      ? ["| tool | definition |", "|---|---|", ...tools.map(([n, o]) => `| ${code(n)} | ${origin[o]} |`)]
      : ["No row calls a tool."]),
    "",
  ];
}

export function datasetCard(c: CardInput): string {
  const m = c.manifest;
  const version = c.version === null ? "draft (not frozen)" : `v${c.version}`;
  return [
    `# ${code(c.dataset)} ${version}`,
    "",
    c.description ? text(c.description) : "",
    "",
    `- data: ${code(c.dataFile)} — ${FORMAT_TEXT[c.format]}`,
    `- content hash: ${c.contentHash ? code(c.contentHash) : "none (draft)"}`,
    `- frozen at: ${c.frozenAt ?? "not frozen"}`,
    `- rows (items): ${m.items}; tokens: total ${m.tokens.total}, max ${m.tokens.max}, mean ${m.tokens.mean} (${m.tokens.tokenizer})`,
    m.leakageOverride
      ? `- **held-out tasks included by override** (${code(m.leakageOverride.by)}, ${m.leakageOverride.at}): ${m.leakageOverride.tasks.map(code).join(", ")} — reason: ${code(m.leakageOverride.reason)}`
      : "- held-out tasks: none included",
    "",
    ...(c.chat ? chatSection(c.format, c.chat.options, c.chat.stats) : []),
    "## Provenance",
    "",
    c.chat
      ? `Not in the rows (a trainer would read it as a column or reject the key): ${code(provenanceFile(c.dataFile))} beside the data holds one provenance object per row, in the same order.`
      : "Every row carries `provenance` (labels formats: flat columns).",
    "Fields: `trajectoryId`, `externalId`, `task`, `benchmark`, `run`, `kind` (trajectory | segment), `parentTrajectoryId`, `forkStep`, `attemptIndex`, `outcome`, `reward`, `labels`, `dataset`, `version`, `datasetHash`.",
    "A recovery segment is the failed parent's steps up to and including `forkStep` (context) followed by the successful attempt's own steps.",
    "",
    "## Manifest",
    "",
    table("Item kinds", m.kinds),
    table("Outcomes", m.byOutcome),
    table("Error categories", m.byErrorCategory),
    table("Runs", m.byRun),
    table("Tasks", m.byTask),
    table("Label values", m.labelValues),
    "## Rules",
    "",
    "```json",
    JSON.stringify(cardRules(c.rules), null, 2).replaceAll("```", "` ` `"),
    "```",
    "",
  ].join("\n");
}
