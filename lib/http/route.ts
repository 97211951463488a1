// One wrapper for every route handler: refuses foreign hosts and cross-site writes (request-guard.ts, the same rules
// proxy.ts applies to pages and server actions), resolves the acting user, runs the handler, and maps errors to JSON
// responses ({ error: { code, message, details } }). AppError codes map through lib/errors.ts; zod errors are 400.
// Every answer is per caller, so none may be stored by a browser or a shared cache (Cache-Control: no-store), and
// when the dashboard is served over HTTPS every answer says so (Strict-Transport-Security).
import { NextResponse, type NextRequest } from "next/server";
import { ZodError } from "zod";
import { AppError, isAppError } from "../errors.ts";
import { resolveRequestContext } from "../services/accounts/authenticate.ts";
import { authorize, type ServiceContext } from "../services/context.ts";
import type { Permission } from "../domain/authz.ts";
import { getEnv } from "../env.ts";
import { checkRequest, guardHeaders } from "./request-guard.ts";
import { servedOverHttps, STRICT_TRANSPORT_SECURITY } from "./security-headers.ts";

export type RouteContext<P> = { params: Promise<P> };

export function errorResponse(e: unknown): NextResponse {
  if (e instanceof ZodError) {
    const details = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ");
    return NextResponse.json({ error: { code: "INVALID_INPUT", message, details } }, { status: 400 });
  }
  if (isAppError(e)) {
    const retryAfter = e.code === "RATE_LIMITED" ? retryAfterOf(e.details) : null;
    return NextResponse.json(
      { error: { code: e.code, message: e.message, details: e.details } },
      { status: e.status, headers: retryAfter ? { "retry-after": String(retryAfter) } : undefined },
    );
  }
  console.error(e);
  return NextResponse.json({ error: { code: "INTERNAL", message: "Internal server error" } }, { status: 500 });
}

const retryAfterOf = (details: unknown): number | null =>
  typeof details === "object" && details !== null && "retryAfter" in details && typeof details.retryAfter === "number"
    ? details.retryAfter
    : null;

/**
 * The request gate for API routes (the proxy leaves /api alone so bodies stream): Host allow-list, method, path and
 * Origin checks of lib/http/request-guard.ts. Returns the refusal, or null to go on.
 */
export function guardRequest(req: Request): Response | null {
  const verdict = checkRequest({ method: req.method, url: req.url, headers: req.headers }, getEnv().RETERM_ALLOWED_HOSTS);
  if (!verdict) return null;
  return NextResponse.json(
    { error: { code: verdict.code, message: verdict.message } },
    { status: verdict.status, headers: guardHeaders(verdict) },
  );
}

/**
 * Wrap a handler: `export const GET = route(async (req, ctx, params) => …, { permission: "trajectory:read" })`.
 * `permission` is checked before the handler reads its input, so a caller who may not act gets 403 rather than a
 * validation error about a body it was never allowed to send (services check again with authorize()).
 */
export function route<P = Record<string, never>>(
  handler: (req: NextRequest, ctx: ServiceContext, params: P) => Promise<Response>,
  opts: { permission?: Permission } = {},
) {
  return async (req: NextRequest, routeCtx: RouteContext<P>): Promise<Response> => {
    const refused = guardRequest(req);
    if (refused) return refused;
    let res: Response;
    try {
      const ctx = await resolveRequestContext(req.headers);
      if (opts.permission) authorize(ctx, opts.permission);
      res = await handler(req, ctx, await routeCtx.params);
    } catch (e) {
      res = errorResponse(e);
    }
    return withAnswerHeaders(res, servedOverHttps(getEnv().RETERM_BASE_URL, req.nextUrl.protocol));
  };
}

function withAnswerHeaders(res: Response, https: boolean): Response {
  const set = (r: Response) => {
    r.headers.set("cache-control", "no-store");
    if (https) r.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    return r;
  };
  try {
    return set(res);
  } catch {
    // Some responses (Response.redirect, a proxied fetch) have immutable headers: answer with a copy.
    return set(new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) }));
  }
}

/** Search params of a request as a plain object (first value wins). */
export function queryObject(req: NextRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of req.nextUrl.searchParams) if (!(k in out)) out[k] = v;
  return out;
}

export { AppError };
