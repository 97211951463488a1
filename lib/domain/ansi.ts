// ANSI/VT escape handling for text views and search (the xterm view renders escapes itself, sanitized).
// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, two-byte escapes and stray C0 controls.
const ANSI_PATTERN =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const C0_EXCEPT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Anything stripAnsi would change: ESC, C1 CSI, carriage returns and other C0 controls (not tab or newline). */
const NEEDS_WORK = /[\u0000-\u0008\u000b-\u001f\u007f\u009b]/;

/** Escape sequences and stray controls, removed in one pass (sequences first, so a lone ESC falls to the class). */
const ESCAPES_AND_CONTROLS = new RegExp(`${ANSI_PATTERN.source}|${C0_EXCEPT_TEXT.source}`, "g");

/** Plain text of terminal output: escapes and controls removed, carriage-return overwrites resolved per line. */
export function stripAnsi(input: string): string {
  // Most output is plain text: one scan decides, and it is returned as it is.
  if (!NEEDS_WORK.test(input)) return input;
  let text = input.replace(ESCAPES_AND_CONTROLS, "");
  // "\r\n" overwrites nothing: only a carriage return inside a line needs resolving.
  if (text.includes("\r")) text = text.replaceAll("\r\n", "\n");
  if (text.includes("\r")) text = resolveCarriageReturns(text);
  return text;
}

/** Lines holding a carriage return (the others are left alone: no split and join of the whole text). */
const LINE_WITH_CR = /[^\n]*\r[^\n]*/g;

function resolveCarriageReturns(text: string): string {
  return text.replace(LINE_WITH_CR, (line) => {
    // Text after the last \r overwrites the start of the line, as a terminal would show it.
    let shown = "";
    for (const p of line.split("\r")) shown = p + shown.slice(p.length);
    return shown;
  });
}

/**
 * Terminal output as the agent saw it: escape sequences interpreted (colours dropped), carriage-return overwrites
 * resolved, trailing blank lines trimmed. Text with no escape or control character is already what was seen and is
 * returned exactly (recorded observations of ATIF, OpenAI chat, SWE-agent… keep their bytes). The one rendering rule
 * for exported observations.
 */
export function terminalTextAsSeen(input: string): string {
  if (!NEEDS_WORK.test(input)) return input;
  return stripAnsi(input).replace(/\s+$/, "");
}
