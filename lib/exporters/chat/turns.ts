// Steps → conversation turns, shared by the chat formats. A step's typed commands become a call to the `terminal`
// tool (its output the tool result); steps with explicit tool calls keep them. Context turns (a recovery segment's
// failed prefix) are marked so trainers can mask them from the loss. Observations are shown as the agent saw them
// (terminalTextAsSeen) unless the export asks for the raw bytes.
import type { StepInput } from "../../domain/trajectory.ts";
import { itemSteps } from "../../domain/curation/segments.ts";
import { terminalTextAsSeen } from "../../domain/ansi.ts";
import type { ExportItem } from "../types.ts";
import { TERMINAL_TOOL } from "./tools.ts";

export interface TurnCall {
  id: string;
  name: string;
  /** The arguments as a JSON string (what the source had when it was one). */
  arguments: string;
  /** The arguments as an object (a non-object value is kept under `input`). */
  args: Record<string, unknown>;
}

export interface Turn {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  toolCalls?: TurnCall[];
  toolCallId?: string;
  /** For tool results: the name of the function answered. */
  toolName?: string;
  /** False for context turns of a segment (train only on the recovery). */
  train: boolean;
  /** True for the failed prefix of a recovery segment (and the task instruction before it). */
  context: boolean;
}

export type ObservationMode = "rendered" | "raw";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function callArgs(a: unknown): { arguments: string; args: Record<string, unknown> } {
  if (a === undefined || a === null) return { arguments: "{}", args: {} };
  if (typeof a === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(a);
    } catch {
      parsed = undefined;
    }
    if (isObject(parsed)) return { arguments: a, args: parsed };
    const args = { input: a };
    return { arguments: JSON.stringify(args), args };
  }
  const args = isObject(a) ? a : { input: a };
  return { arguments: JSON.stringify(args), args };
}

/** `pending`: calls of the latest assistant turn not answered yet (a tool step answers the first of them). */
function stepTurns(
  s: StepInput,
  index: number,
  train: boolean,
  context: boolean,
  pending: TurnCall[],
  seen: (t: string) => string,
): Turn[] {
  if (s.source === "user" || s.source === "system") {
    const text = seen(s.message ?? s.observation ?? "");
    return text ? [{ role: s.source, content: text, train: false, context }] : [];
  }
  if (s.source === "tool") {
    const content = seen(s.observation ?? s.message ?? "");
    // A tool result answers a pending call; without one it is plain input to the model.
    const last = pending.shift();
    return [
      last
        ? { role: "tool", content, toolCallId: last.id, toolName: last.name, train: false, context }
        : { role: "user", content, train: false, context },
    ];
  }
  const content = [s.reasoning, s.message].filter((x) => x).join("\n\n");
  const calls: TurnCall[] = s.toolCalls?.length
    ? s.toolCalls.map((c, k) => ({ id: c.id ?? `call_${index}_${k}`, name: c.name, ...callArgs(c.arguments) }))
    : s.action
      ? [
          {
            id: `call_${index}_0`,
            name: TERMINAL_TOOL,
            arguments: JSON.stringify({ keystrokes: s.action }),
            args: { keystrokes: s.action },
          },
        ]
      : [];
  const turns: Turn[] = [{ role: "assistant", content, ...(calls.length ? { toolCalls: calls } : {}), train, context }];
  pending.length = 0;
  if (calls.length && s.observation === undefined) pending.push(...calls);
  if (calls.length && s.observation !== undefined) {
    // One result per call; the terminal's output belongs to the last call of the step.
    const out = seen(s.observation);
    calls.forEach((c, k) =>
      turns.push({ role: "tool", content: k === calls.length - 1 ? out : "", toolCallId: c.id, toolName: c.name, train: false, context }),
    );
  }
  return turns;
}

/** The whole conversation of an item: task instruction first when the steps do not already open with the user. */
export function itemTurns(e: Pick<ExportItem, "item" | "parent">, observations: ObservationMode = "raw"): Turn[] {
  const t = e.item.trajectory;
  const { context, target } = itemSteps(e.item, e.parent);
  const seen = observations === "raw" ? (x: string) => x : terminalTextAsSeen;
  const turns: Turn[] = [];
  const first = context[0] ?? target[0];
  if (t.task.instruction && first?.source !== "user")
    turns.push({ role: "user", content: t.task.instruction, train: false, context: context.length > 0 });
  const pending: TurnCall[] = [];
  const add = (s: StepInput, i: number, train: boolean, isContext: boolean) => {
    for (const turn of stepTurns(s, i, train, isContext, pending, seen)) turns.push(turn);
  };
  context.forEach((s, i) => add(s, i, false, true));
  // Whole trajectories train on every agent turn; segments only on the recovery.
  target.forEach((s, i) => add(s, context.length + i, true, false));
  return turns;
}
