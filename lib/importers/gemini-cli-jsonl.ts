// Gemini CLI's current session layout (google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts,
// loadConversationRecord): `session-<time>-<id>.jsonl`, a metadata line {sessionId, projectHash, startTime, …}, then
// appended records — a message (has an `id`; a later record with the same id replaces it in place), a metadata update
// {"$set": {...}} (lastUpdated, summary, directories, or a whole `messages` list that then wins), and a rewind
// {"$rewindTo": id} that drops that message and everything after it. Folded here the way Gemini CLI reloads a session.
import type { ImportIssue, ImportSource } from "./types.ts";
import { isRecord, MAX_LINE_BYTES, MAX_RECORD_BYTES, readLines } from "./util.ts";

export interface FoldedSession {
  /** Metadata and messages as the legacy single-JSON layout holds them. */
  session: Record<string, unknown>;
  /** Line each message came from (for issues about a message). */
  messageLines: number[];
  warnings: ImportIssue[];
  /** Set when the file cannot give a session at all. */
  error?: ImportIssue;
}

/** Whether a file's head is the JSONL layout: its first line alone is the session's metadata record. */
export function looksLikeGeminiJsonl(head: string): boolean {
  const nl = head.indexOf("\n");
  const first = nl === -1 ? head : head.slice(0, nl);
  if (!/"sessionId"\s*:/.test(first) || !/"projectHash"\s*:/.test(first)) return false;
  try {
    const v: unknown = JSON.parse(first);
    return isRecord(v) && typeof v.sessionId === "string" && typeof v.projectHash === "string" && !Array.isArray(v.messages);
  } catch {
    return false;
  }
}

export async function foldGeminiJsonl(source: Extract<ImportSource, { kind: "file" }>): Promise<FoldedSession> {
  const file = source.displayPath;
  const warnings: ImportIssue[] = [];
  let metadata: Record<string, unknown> = {};
  const messages = new Map<string, { record: Record<string, unknown>; line: number }>();
  let bytes = 0;
  for await (const { text, lineNo, tooLong } of readLines(source)) {
    if (tooLong) {
      warnings.push({ file, line: lineNo, message: `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB; skipped` });
      continue;
    }
    if (!text.trim()) continue;
    bytes += text.length;
    if (bytes > MAX_RECORD_BYTES)
      return {
        session: {},
        messageLines: [],
        warnings,
        error: {
          file,
          line: lineNo,
          message: `the session holds more than ${MAX_RECORD_BYTES / 1024 / 1024} MB of records (one trajectory); it was not read`,
        },
      };
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      warnings.push({ file, line: lineNo, message: "invalid JSON line; skipped" });
      continue;
    }
    if (!isRecord(record)) warnings.push({ file, line: lineNo, message: "expected a JSON object; skipped" });
    else if (typeof record.$rewindTo === "string") rewind(messages, record.$rewindTo);
    else if (typeof record.id === "string") messages.set(record.id, { record, line: messages.get(record.id)?.line ?? lineNo });
    else if (isRecord(record.$set)) metadata = { ...metadata, ...record.$set };
    else if (typeof record.sessionId === "string" && typeof record.projectHash === "string") metadata = { ...metadata, ...record };
    else
      warnings.push({
        file,
        line: lineNo,
        message: "not a Gemini CLI session record (no id, $set, $rewindTo or session metadata); skipped",
      });
  }
  if (typeof metadata.sessionId !== "string")
    return {
      session: {},
      messageLines: [],
      warnings,
      error: { file, line: 1, path: "sessionId", message: "no session metadata line (sessionId, projectHash)" },
    };
  // A `messages` list set by an update is the conversation as Gemini CLI last synced it (it wins, as on reload).
  const synced = Array.isArray(metadata.messages) && metadata.messages.length > 0;
  const list = [...messages.values()];
  return {
    session: { ...metadata, messages: synced ? metadata.messages : list.map((m) => m.record) },
    messageLines: synced ? [] : list.map((m) => m.line),
    warnings,
  };
}

/** `$rewindTo`: that message and every later one go; an unknown id clears the conversation (as Gemini CLI does). */
function rewind(messages: Map<string, unknown>, id: string): void {
  if (!messages.has(id)) return messages.clear();
  let found = false;
  for (const key of [...messages.keys()]) {
    if (key === id) found = true;
    if (found) messages.delete(key);
  }
}
