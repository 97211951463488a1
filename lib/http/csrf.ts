// CSRF guard for route handlers. Cookies (team mode) and local mode's implicit admin are ambient credentials, so a
// state-changing request must come from our own pages: a browser always sends Origin (and Sec-Fetch-Site) on a POST,
// and a cross-site form or fetch carries the other site's origin. Requests with an API token carry their credential
// explicitly and are not at risk; non-browser clients (curl, the CLI) send neither header and are let through.
// Server actions get the same check from Next.js itself (Origin vs Host).
import { AppError } from "../errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function assertSameOrigin(method: string, headers: Headers, requestUrl: string): void {
  if (SAFE_METHODS.has(method.toUpperCase()) || headers.has("authorization")) return;
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("FORBIDDEN", `Cross-site request refused (Sec-Fetch-Site: ${site})`);
  }
  const origin = headers.get("origin");
  if (origin === null) return;
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? new URL(requestUrl).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError("FORBIDDEN", `Cross-site request refused (Origin: ${origin.slice(0, 80)})`);
  }
  if (originHost !== host) throw new AppError("FORBIDDEN", `Cross-site request refused (Origin ${originHost} is not ${host})`);
}
