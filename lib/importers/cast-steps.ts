// Steps derived from a terminal recording, for casts that come without a trajectory (asciicast files, TB1
// sessions/agent.cast, Harbor trials that only kept recording.cast). Deterministic and deliberately simple:
//
// 1. Output is cut into lines (ANSI escapes stripped, `\r` overwrites resolved). A line that, when output pauses
//    (end of an "o" event), ends like a shell prompt — `$ ` or `# ` right after a non-blank character (or alone),
//    `% ` after a non-digit — starts a new step. So does a complete line shaped `user@host:path# command`.
//    `> ` is not a prompt: it is also bash's continuation prompt (heredocs), which must stay inside its command.
// 2. The command of a step is what was typed after its prompt: the "i" events up to the next prompt (one line per
//    Enter; ^C/^D shown in caret notation), or — when the recording has no input events — the echoed rest of the
//    prompt line. Without any recognised prompt, each Enter starts a new step instead.
// 3. The output until the next prompt is the step's observation (the echoed command line is dropped), kept to
//    the first 8 KB and last 56 KB.
// 4. A marker ("m") closes the current step and labels the next one (Terminus writes one per episode).
// Output-only stretches (before the first prompt, or a marker with no command) become "tool" steps.
import { stripAnsi } from "../domain/ansi.ts";
import type { RecordingEvent, StepInput } from "../domain/trajectory.ts";

// The character before the sigil rules out progress bars ("#####   ") and percentages ("50% ").
const PROMPT_END = /(?:^|[^\s$#%])[$#] $|(?:^|[^\s\d%])% $/;
const PROMPT_WITH_COMMAND = /^((?:\([^)]*\) )?[\w.-]+@[\w.-]+(?::\S*)?[$#]|(?:ba|z)?sh-[\d.]+[$#]) (.*)$/;
const MAX_PROMPT = 120;
const MAX_LINE = 64 * 1024;
const OBS_HEAD = 8 * 1024;
const OBS_TAIL = 56 * 1024;
const INPUT_ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[O\[]?[@-~]?/g;

/** Text that keeps its first and last part only, so one step cannot hold megabytes of output. */
class BoundedText {
  private head = "";
  private tail = "";
  private omitted = 0;

  append(s: string): void {
    if (this.head.length < OBS_HEAD) {
      const room = OBS_HEAD - this.head.length;
      this.head += s.slice(0, room);
      s = s.slice(room);
    }
    if (!s) return;
    this.tail += s;
    if (this.tail.length > 2 * OBS_TAIL) {
      this.omitted += this.tail.length - OBS_TAIL;
      this.tail = this.tail.slice(-OBS_TAIL);
    }
  }

  text(): string {
    if (this.tail.length > OBS_TAIL) {
      this.omitted += this.tail.length - OBS_TAIL;
      this.tail = this.tail.slice(-OBS_TAIL);
    }
    return this.omitted ? `${this.head}\n[… ${this.omitted} characters omitted …]\n${this.tail}` : this.head + this.tail;
  }
}

interface Draft {
  t: number;
  message?: string;
  commands: string[];
  typed: string;
  out: BoundedText;
  hasOutput: boolean;
}

const newDraft = (t: number): Draft => ({ t, commands: [], typed: "", out: new BoundedText(), hasOutput: false });

function visible(raw: string): string {
  return stripAnsi(raw).replace(/\s+$/, (ws) => (ws.includes(" ") ? " " : ""));
}

/** The echo of a typed command (possibly after an unrecognised prompt) is not output of the command. */
function isEcho(line: string, command: string | undefined): boolean {
  const cmd = command?.trim();
  const shown = line.trim();
  if (!cmd || !shown.endsWith(cmd)) return false;
  const before = shown.slice(0, -cmd.length);
  return before === "" || /[\s$#%>]$/.test(before);
}

class CastStepBuilder {
  readonly steps: StepInput[] = [];
  private cur: Draft | null = null;
  private line = "";
  /** Visible length of the prompt on the current line; -1 when the line has none. */
  private promptLen = -1;
  private promptSeen = false;
  private lastT = 0;

  constructor(
    private readonly hasInput: boolean,
    private readonly startMs: number | undefined,
  ) {}

  output(t: number, data: string): void {
    this.lastT = t;
    if (!this.cur && data.trim()) this.cur = newDraft(t);
    let from = 0;
    for (let nl = data.indexOf("\n"); nl !== -1; nl = data.indexOf("\n", from)) {
      this.appendLine(t, data.slice(from, nl));
      this.endLine(t);
      from = nl + 1;
    }
    this.appendLine(t, data.slice(from));
    if (this.promptLen < 0 && this.line.length <= 8 * MAX_PROMPT) {
      const shown = visible(this.line);
      if (shown.length <= MAX_PROMPT && PROMPT_END.test(shown)) {
        this.startStep(t, true);
        this.promptSeen = true;
        this.promptLen = shown.length;
      }
    }
  }

  input(t: number, data: string): void {
    this.lastT = t;
    for (const ch of data.replace(INPUT_ESCAPES, "")) {
      const cur = (this.cur ??= newDraft(t));
      if (ch === "\r" || ch === "\n") this.enter(t);
      else if (ch === "\u007f" || ch === "\b") cur.typed = cur.typed.slice(0, -1);
      else if (ch === "\u0003" || ch === "\u0004") {
        cur.typed += ch === "\u0003" ? "^C" : "^D";
        this.enter(t);
      } else if (ch < " " && ch !== "\t") cur.typed += `^${String.fromCharCode(ch.charCodeAt(0) + 64)}`;
      else cur.typed += ch;
    }
  }

  marker(t: number, label: string): void {
    this.lastT = t;
    this.flushPartialLine(t);
    this.startStep(t, false);
    this.cur!.message = label || undefined;
  }

  finish(): StepInput[] {
    this.flushPartialLine(this.lastT);
    this.closeStep();
    return this.steps;
  }

  private appendLine(t: number, s: string): void {
    this.line += s;
    if (this.line.length > MAX_LINE && this.promptLen < 0) this.flushPartialLine(t);
  }

  private flushPartialLine(t: number): void {
    if (this.promptLen >= 0 || !this.line) return;
    const shown = stripAnsi(this.line);
    this.line = "";
    if (!shown.trim()) return;
    const cur = (this.cur ??= newDraft(t));
    cur.out.append(shown);
    cur.hasOutput = true;
  }

  private endLine(t: number): void {
    const shown = visible(this.line);
    this.line = "";
    if (this.promptLen >= 0) {
      const echoed = shown.slice(this.promptLen).trim();
      if (!this.hasInput && echoed) this.cur!.commands.push(echoed);
      this.promptLen = -1;
      return;
    }
    const m = PROMPT_WITH_COMMAND.exec(shown);
    if (m) {
      this.startStep(t, true);
      this.promptSeen = true;
      if (!this.hasInput && m[2]!.trim()) this.cur!.commands.push(m[2]!.trim());
      return;
    }
    const cur = (this.cur ??= newDraft(t));
    cur.out.append(`${shown.trimEnd()}\n`);
    cur.hasOutput ||= shown.trim() !== "";
  }

  private enter(t: number): void {
    const cur = this.cur!;
    const typed = cur.typed;
    cur.typed = "";
    if (!typed.trim()) return;
    // Without prompts, each entered line is its own step; output shown before it belongs to the previous one.
    if (!this.promptSeen && (cur.commands.length > 0 || cur.hasOutput)) this.startStep(t, false);
    this.cur!.commands.push(typed);
  }

  /** Close the current step and open one at `t`; a blank current step (e.g. just a marker) is reused if asked. */
  private startStep(t: number, reuseBlank: boolean): void {
    const c = this.cur;
    if (reuseBlank && c && !c.commands.length && !c.hasOutput && !c.typed.trim()) return;
    this.closeStep();
    this.cur = newDraft(t);
  }

  private closeStep(): void {
    const c = this.cur;
    this.cur = null;
    if (!c) return;
    if (c.typed.trim()) c.commands.push(c.typed);
    const action = c.commands.join("\n") || undefined;
    let observation = c.out.text().replace(/^\n+/, "").trimEnd();
    if (isEcho(observation.split("\n", 1)[0]!, c.commands[0]))
      observation = observation.includes("\n") ? observation.slice(observation.indexOf("\n") + 1).replace(/^\n+/, "") : "";
    if (!action && !observation && !c.message) return;
    const offsetMs = Math.round(c.t * 1000);
    this.steps.push({
      source: action ? "agent" : "tool",
      ...(this.startMs !== undefined ? { timestamp: new Date(this.startMs + offsetMs).toISOString() } : {}),
      offsetMs,
      message: c.message,
      action,
      observation: observation || undefined,
    });
  }
}

/**
 * Steps derived from recording events (seconds since start). `startMs` (epoch ms of the recording start, when the
 * header states it) gives the steps absolute timestamps.
 */
export function deriveCastSteps(events: readonly RecordingEvent[], startMs?: number): StepInput[] {
  const builder = new CastStepBuilder(
    events.some((e) => e[1] === "i"),
    startMs,
  );
  for (const [t, code, data] of events) {
    if (code === "o") builder.output(t, data);
    else if (code === "i") builder.input(t, data);
    else if (code === "m") builder.marker(t, data);
  }
  return builder.finish();
}
