// Where the elements of a top-level JSON array lie in its text, found by one pass over the characters (strings and
// nesting tracked, nothing parsed), so a caller can size each element — and refuse an oversized one — before parsing
// it. Iterative, so deep nesting costs a counter, not a stack.

export type Span = readonly [start: number, end: number];

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The [start, end) spans of the elements of `text` if it is a JSON array; null if it is not an array (an object or
 * anything else) or is cut off or followed by more text. Malformed elements yield spans that do not parse; the caller's
 * JSON.parse reports those.
 */
export function topLevelArraySpans(text: string): Span[] | null {
  let i = 0;
  while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) === 0xfeff) i++;
  if (text[i] !== "[") return null;
  const spans: Span[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (i = i + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (WS.has(c)) continue;
    if (start < 0 && c !== 0x2c && c !== 0x5d) start = i;
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (depth === 0 && c === 0x5d) {
        if (start >= 0) spans.push([start, trimEnd(text, i)]);
        // Anything after the closing bracket makes the document invalid: let the parser say so.
        for (let j = i + 1; j < text.length; j++) if (!WS.has(text.charCodeAt(j))) return null;
        return spans;
      }
      depth--;
    } else if (c === 0x2c && depth === 0) {
      spans.push([start < 0 ? i : start, trimEnd(text, i)]);
      start = -1;
    }
  }
  return null; // unterminated
}

function trimEnd(text: string, end: number): number {
  while (end > 0 && WS.has(text.charCodeAt(end - 1))) end--;
  return end;
}

/** UTF-8 size of text[start, end), counted without copying it. */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** How deeply arrays and objects nest in the JSON text[start, end) (strings skipped), stopping once past `limit`. */
export function nestingDepth(text: string, start = 0, end = text.length, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
