// The one gate every request passes (proxy.ts for pages, the route() wrapper for API routes): the Host must be one this server answers to (loopback
// or RETERM_ALLOWED_HOSTS — a DNS-rebinding page arrives with its own name as Host), the path must decode, the method
// must be one the app serves, and a state-changing request from a browser must come from this very origin (Origin and
// Sec-Fetch-Site). Requests without those browser headers (curl, the CLI, pipelines with tokens) are not browsers
// and pass the origin check; a cross-site page cannot strip them. Pure: headers in, verdict out.

export interface GuardVerdict {
  status: 400 | 403 | 405 | 421;
  code: "INVALID_INPUT" | "FORBIDDEN" | "METHOD_NOT_ALLOWED" | "MISDIRECTED_REQUEST";
  message: string;
}

/** Response headers for a refusal. */
export function guardHeaders(v: GuardVerdict): Record<string, string> {
  return v.status === 405 ? { "cache-control": "no-store", allow: [...SERVED_METHODS].join(", ") } : { "cache-control": "no-store" };
}

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const SERVED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/** The host name of a Host header or URL authority, lower-cased, without port ("[::1]" keeps its brackets). */
export function hostName(authority: string): string | null {
  const a = authority.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/@\s]+)(:\d{1,5})?$/.exec(a);
  return m ? m[1]!.replace(/\.$/, "") : null;
}

function isLoopback(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(name) || name === "[::1]";
}

export function hostAllowed(name: string, allowed: readonly string[]): boolean {
  if (isLoopback(name) || allowed.includes("*")) return true;
  return allowed.some((h) => (h.startsWith(".") ? name === h.slice(1) || name.endsWith(h) : name === h.replace(/\.$/, "")));
}

export function checkRequest(req: { method: string; url: string; headers: Headers }, allowedHosts: readonly string[]): GuardVerdict | null {
  // Without a Host header (HTTP/1.0, or a Request built in code) the URL's authority is what the request names.
  const host = req.headers.get("host") ?? /^[a-z]+:\/\/([^/?#]*)/i.exec(req.url)?.[1] ?? "";
  const name = hostName(host);
  if (!name) return { status: 400, code: "INVALID_INPUT", message: "the request has no valid Host header" };
  if (!hostAllowed(name, allowedHosts)) {
    return {
      status: 421,
      code: "MISDIRECTED_REQUEST",
      message: `this server does not answer to the host name "${name.slice(0, 100)}" (add it to RETERM_ALLOWED_HOSTS if it is yours)`,
    };
  }
  const method = req.method.toUpperCase();
  if (!SERVED_METHODS.has(method))
    return { status: 405, code: "METHOD_NOT_ALLOWED", message: `method ${method.slice(0, 20)} is not allowed` };
  const rawPath = req.url.replace(/^[a-z]+:\/\/[^/]*/i, "").split("?")[0]!;
  try {
    decodeURIComponent(rawPath);
  } catch {
    return { status: 400, code: "INVALID_INPUT", message: "the URL path is not valid percent-encoded UTF-8" };
  }
  if (SAFE_METHODS.has(method)) return null;
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    return {
      status: 403,
      code: "FORBIDDEN",
      message: `cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 20)}): changes can only be made from this site`,
    };
  }
  const origin = req.headers.get("origin");
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      originHost = origin === "null" ? null : new URL(origin).host.toLowerCase();
    } catch {
      originHost = null;
    }
    if (originHost !== host.trim().toLowerCase()) {
      return {
        status: 403,
        code: "FORBIDDEN",
        message: `request from another origin (${origin.slice(0, 100)}) refused: changes can only be made from this site`,
      };
    }
  }
  return null;
}
