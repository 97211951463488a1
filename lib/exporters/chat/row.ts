// One item as a chat row every trainer format is written from: its turns (ending on an assistant turn), the tools it
// declares, and the token budget applied. Null when the row has nothing to train on or cannot fit the budget; the
// stats count why, for the card.
import { countTokens } from "../../domain/curation/tokens.ts";
import type { ExportItem } from "../types.ts";
import type { ExportOptions } from "./options.ts";
import type { ChatStats } from "./stats.ts";
import { rowTools, sourceTools, type ToolDef } from "./tools.ts";
import { itemTurns, type Turn } from "./turns.ts";

export interface ChatRow {
  turns: Turn[];
  tools: ToolDef[];
}

/** Trailing tool outputs and user messages teach nothing: a row ends on the agent's last message or action. */
function endOnAssistant(turns: Turn[]): Turn[] {
  let end = turns.length;
  while (end > 0 && turns[end - 1]!.role !== "assistant") end--;
  return end === turns.length ? turns : turns.slice(0, end);
}

/** The text a budget counts: every message and call, and the declared tools (templates render them into the prompt). */
function rowTokens(turns: Turn[], tools: ToolDef[]): number {
  const parts: string[] = tools.length ? [JSON.stringify(tools)] : [];
  for (const t of turns) {
    parts.push(t.content);
    for (const c of t.toolCalls ?? []) parts.push(c.name, c.arguments);
  }
  return countTokens(parts.join("\n"));
}

/**
 * Fit a row into `max` tokens by removing the failed context's oldest exchanges (an assistant turn with its tool
 * results), keeping the task's opening turns; the recovery is never cut. Null when even that does not fit.
 */
function fitBudget(turns: Turn[], tools: ToolDef[], max: number): { turns: Turn[]; truncated: boolean } | null {
  if (rowTokens(turns, tools) <= max) return { turns, truncated: false };
  const head = turns.findIndex((t) => t.role === "assistant");
  const opening = turns.slice(0, head);
  let rest = turns.slice(head);
  while (rest[0]?.context) {
    let cut = 1;
    while (rest[cut] && rest[cut]!.role !== "assistant") cut++;
    rest = rest.slice(cut);
    if (rest[0] && !rest[0].context && rowTokens([...opening, ...rest], tools) > max) return null;
    if (rowTokens([...opening, ...rest], tools) <= max) return { turns: [...opening, ...rest], truncated: true };
  }
  return null;
}

/**
 * Every call gets a result before the conversation moves on (an empty one when the source recorded none): chat formats
 * pair each tool call with a tool message. The last assistant turn's calls stay open, the row ends on them.
 */
function answerCalls(turns: Turn[]): Turn[] {
  const out: Turn[] = [];
  let open: { id: string; name: string }[] = [];
  const close = (context: boolean) => {
    for (const c of open) out.push({ role: "tool", content: "", toolCallId: c.id, toolName: c.name, train: false, context });
    open = [];
  };
  for (const t of turns) {
    if (t.role === "tool" && t.toolCallId) open = open.filter((c) => c.id !== t.toolCallId);
    else if (t.role !== "tool") close(t.context);
    out.push(t);
    if (t.toolCalls) open = t.toolCalls.map((c) => ({ id: c.id, name: c.name }));
  }
  return out;
}

export function chatRow(e: ExportItem, o: ExportOptions, stats: ChatStats): ChatRow | null {
  // An assistant turn that neither says nor calls anything is not a turn.
  let turns = answerCalls(endOnAssistant(itemTurns(e, o.observations).filter((t) => t.role !== "assistant" || t.content || t.toolCalls)));
  if (!turns.some((t) => t.role === "assistant" && t.train)) {
    stats.droppedUntrained++;
    return null;
  }
  const source = sourceTools(e.item.trajectory.metadata);
  const parentSource = e.parent ? sourceTools(e.parent.trajectory.metadata) : [];
  const known = new Set(source.map((d) => d.name));
  const { tools, origins } = rowTools(
    [...source, ...parentSource.filter((d) => !known.has(d.name))],
    turns.flatMap((t) => t.toolCalls ?? []),
  );
  if (o.maxTokens !== null) {
    const fit = fitBudget(turns, tools, o.maxTokens);
    if (!fit) {
      stats.droppedOverBudget++;
      return null;
    }
    if (fit.truncated) stats.truncated++;
    turns = fit.turns;
  }
  stats.rows++;
  stats.noteTools(origins);
  return { turns, tools };
}

/** A call as one readable line of a folded transcript. */
const callText = (c: { name: string; arguments: string }) => `${c.name} ${c.arguments}`;

/**
 * The failed context folded into the first user turn, as a transcript: for formats with no per-turn loss mask the
 * context then sits in the prompt and only the recovery's turns are trained. System turns stay system turns.
 */
export function foldContext(turns: Turn[]): Turn[] {
  if (!turns.some((t) => t.context && t.role !== "user" && t.role !== "system")) return turns;
  const system = turns.filter((t) => t.context && t.role === "system");
  const lines: string[] = [];
  const task: string[] = [];
  for (const t of turns) {
    if (!t.context || t.role === "system") continue;
    if (t.role === "user" && !lines.length) task.push(t.content);
    else if (t.role === "user") lines.push(`[user]\n${t.content}`);
    else if (t.role === "assistant")
      lines.push(`[assistant]${t.content ? `\n${t.content}` : ""}${(t.toolCalls ?? []).map((c) => `\n[call] ${callText(c)}`).join("")}`);
    else lines.push(`[output]\n${t.content}`);
  }
  const content = [...task, "Earlier steps of this task (a failed attempt, shown as context):", ...lines, "Continue from here."].join(
    "\n\n",
  );
  const rest = turns.filter((t) => !t.context);
  // A result whose call was folded into the transcript is plain input now.
  const called = new Set(rest.flatMap((t) => (t.toolCalls ?? []).map((c) => c.id)));
  const kept = rest.map((t): Turn =>
    t.role === "tool" && !called.has(t.toolCallId ?? "") ? { role: "user", content: t.content, train: false, context: false } : t,
  );
  return [...system, { role: "user", content, train: false, context: true }, ...kept];
}
