// The dataset card (README.md) written beside the data: what the rows are, how to load them, the manifest and the
// provenance fields. Pure: the same version and format give the same bytes. Untrusted names are rendered as code.
import type { Manifest } from "../domain/curation/manifest.ts";
import type { ExportFormat } from "../domain/curation/types.ts";

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
}

const FORMAT_TEXT: Record<ExportFormat, string> = {
  openai: "OpenAI-style chat JSONL (`messages` with system/user/assistant/tool roles, assistant `tool_calls`, `tools`). Loads as is with TRL (conversational), LLaMA-Factory (`formatting: openai`) and axolotl (`type: chat_template`). Context turns of a recovery segment have `weight: 0`.",
  sharegpt: "ShareGPT JSONL (`conversations` with `from` human/gpt/function_call/observation and `value`; `system`).",
  native: "ReTerm native JSONL (`reterm.trajectory.v1`): lossless trajectories with steps, recordings, fork links and labels; re-import with `npm run reterm -- import FILE`.",
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
  return { ...rules, ids: [...ids.slice(0, CARD_MAX_IDS), `… and ${ids.length - CARD_MAX_IDS} more (${ids.length} in all; every row's provenance.trajectoryId)`] };
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
    "## Provenance",
    "",
    "Every row carries `provenance` (labels formats: flat columns): `trajectoryId`, `externalId`, `task`, `benchmark`, `run`, `kind` (trajectory | segment), `parentTrajectoryId`, `forkStep`, `attemptIndex`, `outcome`, `reward`, `labels`, `dataset`, `version`, `datasetHash`.",
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
