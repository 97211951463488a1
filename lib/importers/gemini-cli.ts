// Gemini CLI session logs (formats.md §9): {sessionId, projectHash, startTime, lastUpdated, messages[]} where a
// message has type "user" or "gemini" (plus info/error/warning notices); model turns add thoughts, token counts and
// the model name, newer versions tool calls with their results. Current versions write the same session as JSONL
// with update records (gemini-cli-jsonl.ts folds them); both layouts are read.
import { z } from "zod";
import type { StepInput, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { fileStem, renderAction, runNameFor, tokenTotals, withOffsets } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions, ImportIssue } from "./types.ts";
import { contentText, nonNegativeInt, normalized, readJson, schemaIssue, toIso, withWarnings } from "./util.ts";
import { foldGeminiJsonl, looksLikeGeminiJsonl } from "./gemini-cli-jsonl.ts";

const FORMAT = "gemini-cli";

const toolCallSchema = z.object({
  id: z.string().nullish(),
  name: z.string(),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
  resultDisplay: z.unknown().optional(),
  status: z.string().nullish(),
});

const messageSchema = z.object({
  id: z.string().nullish(),
  timestamp: z.string().nullish(),
  type: z.string(),
  content: z.unknown().optional(),
  thoughts: z.array(z.object({ subject: z.string().nullish(), description: z.string().nullish() })).nullish(),
  tokens: z
    .object({
      input: z.number().nullish(),
      output: z.number().nullish(),
      cached: z.number().nullish(),
      thoughts: z.number().nullish(),
      tool: z.number().nullish(),
      total: z.number().nullish(),
    })
    .nullish(),
  model: z.string().nullish(),
  toolCalls: z.array(toolCallSchema).nullish(),
});
type Message = z.infer<typeof messageSchema>;

const sessionSchema = z.object({
  sessionId: z.string(),
  projectHash: z.string().nullish(),
  startTime: z.string().nullish(),
  lastUpdated: z.string().nullish(),
  messages: z.array(messageSchema),
});

function thoughtsText(m: Message): string | undefined {
  const parts = (m.thoughts ?? [])
    .map((t) => [t.subject ? `**${t.subject}**` : "", t.description ?? ""].filter(Boolean).join(" "))
    .filter(Boolean);
  return parts.length ? parts.join("\n") : undefined;
}

// Tool results are Gemini function-response parts or plain text; the display string is what the user saw.
function resultText(call: z.infer<typeof toolCallSchema>): string | undefined {
  if (typeof call.resultDisplay === "string") return call.resultDisplay;
  const text = contentText(call.result);
  return text ?? undefined;
}

function stepOf(m: Message): StepInput {
  const timestamp = toIso(m.timestamp);
  const text = contentText(m.content) ?? "";
  if (m.type === "user") return { source: "user", timestamp, message: text };
  if (m.type !== "gemini") return { source: "system", timestamp, message: m.type === "error" ? `Error: ${text}` : text };
  const toolCalls: ToolCall[] | undefined = m.toolCalls?.length
    ? m.toolCalls.map((c) => ({ id: c.id ?? undefined, name: c.name, arguments: c.args }))
    : undefined;
  // The session records a call's status, not an exit code; a failed call says so in the observation text.
  const results = (m.toolCalls ?? [])
    .map((c) => [resultText(c), c.status === "error" ? `(${c.name} failed)` : undefined].filter(Boolean).join("\n"))
    .filter(Boolean);
  return {
    source: "agent",
    timestamp,
    message: text || undefined,
    reasoning: thoughtsText(m),
    action: renderAction(toolCalls),
    toolCalls,
    observation: results.length ? results.join("\n") : undefined,
    promptTokens: nonNegativeInt(m.tokens?.input),
    completionTokens: nonNegativeInt(m.tokens?.output),
  };
}

export const geminiCliImporter: Importer = {
  format: FORMAT,
  label: "Gemini CLI session",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (looksLikeGeminiJsonl(head)) return 0.95;
    if (!head.startsWith("{") || !/"sessionId"\s*:/.test(head) || !/"messages"\s*:\s*\[/.test(head)) return 0;
    return /"type"\s*:\s*"(?:user|gemini)"/.test(head) ? 0.95 : 0.6;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    let value: unknown;
    let warnings: ImportIssue[] = [];
    let lineOf = (_path: readonly PropertyKey[]): number | undefined => undefined;
    if (looksLikeGeminiJsonl(source.head.trimStart())) {
      const folded = await foldGeminiJsonl(source);
      if (folded.error) return yield { ok: false, issue: folded.error };
      value = folded.session;
      warnings = folded.warnings;
      lineOf = (p) => (p[0] === "messages" && typeof p[1] === "number" ? folded.messageLines[p[1]] : undefined);
    } else {
      const doc = await readJson(source);
      if (!doc.ok) return yield doc.record;
      value = doc.value;
    }
    const parsed = sessionSchema.safeParse(value);
    if (!parsed.success) return yield schemaIssue(parsed.error, source.displayPath, lineOf(parsed.error.issues[0]?.path ?? []));
    const session = parsed.data;
    const startedAt = toIso(session.startTime);
    const steps = withOffsets(session.messages.map(stepOf), startedAt);
    const model = session.messages.find((m) => m.model)?.model ?? undefined;
    const draft: TrajectoryDraft = {
      task: {
        benchmark: "unknown",
        id: fileStem(source.displayPath, [".jsonl", ".json"]),
        instruction: steps.find((s) => s.source === "user")?.message || undefined,
      },
      run: { name: runNameFor(options, "gemini-cli", model), model, agent: "gemini-cli", source: "gemini-cli" },
      outcome: "unknown",
      startedAt,
      endedAt: toIso(session.lastUpdated),
      ...tokenTotals(steps),
      steps,
      metadata: { sessionId: session.sessionId, projectHash: session.projectHash ?? undefined },
    };
    yield withWarnings(normalized(draft, FORMAT, source.displayPath), warnings);
  },
};
