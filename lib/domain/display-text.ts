// Text that the browser's HTML parser would change must be changed before React renders it, or the server's HTML and
// the client's RSC payload disagree and hydration fails (React error #418) on pages showing imported content: the
// parser turns "\r\n" and lone "\r" into "\n", drops NUL, and a lone UTF-16 surrogate cannot be encoded in the UTF-8
// HTML at all (it arrives as U+FFFD). This makes strings display-stable; stored data is never touched.

const UNSTABLE = /[\r\u0000\ud800-\udfff]/;

/** One string made display-stable: CRLF/CR → LF, NUL → U+FFFD, lone surrogates → U+FFFD. */
export function displayText(s: string): string {
  if (!UNSTABLE.test(s)) return s;
  return s.replace(/\r\n?/g, "\n").replace(/\u0000/g, "\ufffd").toWellFormed();
}

/**
 * Every string inside plain data (objects, arrays; Dates and other class instances left alone) made display-stable.
 * Returns the same object when nothing needed changing, so clean pages pay one scan and no copies.
 */
export function displaySafe<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(v: unknown, depth: number): unknown {
  if (typeof v === "string") return displayText(v);
  if (v === null || typeof v !== "object" || depth > 64) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const w = walk(v[i], depth + 1);
      if (w !== v[i]) (out ??= v.slice())[i] = w;
    }
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  let out: Record<string, unknown> | null = null;
  for (const [k, x] of Object.entries(v)) {
    const w = walk(x, depth + 1);
    if (w !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = w;
  }
  return out ?? v;
}
