// Steps → conversation turns, shared by the chat formats. A step's typed commands become a call to the `terminal`
// tool (its output the tool result); steps with explicit tool calls keep them. Context turns (a recovery segment's
// failed prefix) are marked so trainers can mask them from the loss.
import type { StepInput } from "../domain/trajectory.ts";
import { itemSteps } from "../domain/curation/segments.ts";
import type { ExportItem } from "./types.ts";

export interface Turn {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
  /** False for context turns of a segment (train only on the recovery). */
  train: boolean;
}

export const TERMINAL_TOOL = "terminal";

const argumentsText = (a: unknown) => (typeof a === "string" ? a : JSON.stringify(a ?? {}));

function stepTurns(s: StepInput, index: number, train: boolean, lastCallId: string | undefined): Turn[] {
  if (s.source === "user" || s.source === "system") {
    const text = s.message ?? s.observation ?? "";
    return text ? [{ role: s.source, content: text, train: false }] : [];
  }
  if (s.source === "tool") {
    const content = s.observation ?? s.message ?? "";
    // A tool result answers the preceding call; without one it is plain input to the model.
    return [lastCallId ? { role: "tool", content, toolCallId: lastCallId, train: false } : { role: "user", content, train: false }];
  }
  const content = [s.reasoning, s.message].filter((x) => x).join("\n\n");
  const calls = s.toolCalls?.length
    ? s.toolCalls.map((c, k) => ({ id: c.id ?? `call_${index}_${k}`, name: c.name, arguments: argumentsText(c.arguments) }))
    : s.action
      ? [{ id: `call_${index}_0`, name: TERMINAL_TOOL, arguments: JSON.stringify({ keystrokes: s.action }) }]
      : [];
  const turns: Turn[] = [{ role: "assistant", content, ...(calls.length ? { toolCalls: calls } : {}), train }];
  if (calls.length && s.observation !== undefined) {
    // One result per call; the terminal's output belongs to the last call of the step.
    calls.forEach((c, k) => turns.push({ role: "tool", content: k === calls.length - 1 ? s.observation! : "", toolCallId: c.id, train: false }));
  }
  return turns;
}

/** The whole conversation of an item: task instruction first when the steps do not already open with the user. */
export function itemTurns(e: Pick<ExportItem, "item" | "parent">): Turn[] {
  const t = e.item.trajectory;
  const { context, target } = itemSteps(e.item, e.parent);
  const turns: Turn[] = [];
  const first = context[0] ?? target[0];
  if (t.task.instruction && first?.source !== "user") turns.push({ role: "user", content: t.task.instruction, train: false });
  let lastCallId: string | undefined;
  const add = (s: StepInput, i: number, train: boolean) => {
    for (const turn of stepTurns(s, i, train, lastCallId)) {
      turns.push(turn);
      if (turn.toolCalls) lastCallId = turn.toolCalls.at(-1)!.id;
    }
  };
  context.forEach((s, i) => add(s, i, false));
  // Whole trajectories train on every agent turn; segments only on the recovery.
  target.forEach((s, i) => add(s, context.length + i, true));
  return turns;
}
