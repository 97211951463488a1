// Runs every page, route handler and server action of the access table as each role and as nobody, in team mode,
// against a real database, and reports each (entry, principal) whose outcome differs from what the table requires.
// Pages and actions run as plain async functions with next/headers mocked by the caller (see route-matrix tests).
import path from "node:path";
import { NextRequest } from "next/server";
import { ROLES, can, type Role } from "../../../lib/domain/authz.ts";
import type { AccessEntry, Need } from "./access-table.ts";
import { ROOT } from "./enumerate.ts";

export type Principal = Role | "anonymous";
export type Outcome = "ok" | "sign-in" | "forbidden";
export const PRINCIPALS: Principal[] = [...ROLES, "anonymous"];

export function expected(need: Need, who: Principal): Outcome {
  if (need === "public") return "ok";
  if (who === "anonymous") return "sign-in";
  if (need === "signed-in") return "ok";
  return can({ role: who }, need) ? "ok" : "forbidden";
}

/** Next's redirect()/notFound() throw errors with a digest; map them to what the visitor would see. */
function classifyThrown(e: unknown): Outcome {
  const digest = e && typeof e === "object" && "digest" in e ? String((e as { digest: unknown }).digest) : "";
  if (digest.startsWith("NEXT_REDIRECT")) {
    const url = digest.split(";")[2] ?? "";
    if (url.startsWith("/sign-in?")) return "sign-in";
    if (url.startsWith("/forbidden")) return "forbidden";
    return "ok"; // a page's own redirect (e.g. / → /trajectories, sign-out → /sign-in)
  }
  if (digest.startsWith("NEXT_HTTP_ERROR_FALLBACK;404")) return "ok"; // got past the guard; the test id does not exist
  throw e;
}

const PARAMS = { id: "no-such-id", name: "no-such-dataset" };

export async function runEntry(entry: AccessEntry, headers: Headers): Promise<Outcome> {
  if (entry.kind === "route") {
    const rel = path.join("app", entry.path, "route.ts");
    const mod = (await import(path.join(ROOT, rel))) as Record<
      string,
      (req: NextRequest, ctx: { params: Promise<unknown> }) => Promise<Response>
    >;
    const handler = mod[entry.method];
    if (!handler) throw new Error(`${rel} exports no ${entry.method}`);
    const req = new NextRequest(`http://127.0.0.1${entry.path.replace("[id]", PARAMS.id).replace("[name]", PARAMS.name)}`, {
      method: entry.method,
      headers,
    });
    const res = await handler(req, { params: Promise.resolve(PARAMS) });
    return res.status === 401 ? "sign-in" : res.status === 403 ? "forbidden" : "ok";
  }
  try {
    if (entry.kind === "page") {
      const file = findPageFile(entry.path);
      const mod = (await import(file)) as { default: (props: unknown) => unknown };
      await mod.default({ params: Promise.resolve(PARAMS), searchParams: Promise.resolve({}) });
    } else {
      const [rel, name] = entry.path.split("#") as [string, string];
      const mod = (await import(path.join(ROOT, rel))) as Record<string, (...a: unknown[]) => Promise<unknown>>;
      await mod[name]!(null, new FormData());
    }
    return "ok";
  } catch (e) {
    return classifyThrown(e);
  }
}

let pageFiles: Map<string, string> | undefined;
export function setPageFiles(pages: { path: string; file: string }[]): void {
  pageFiles = new Map(pages.map((p) => [p.path, p.file]));
}
function findPageFile(urlPath: string): string {
  const f = pageFiles?.get(urlPath);
  if (!f) throw new Error(`no page file for ${urlPath}`);
  return f;
}

/** Sign-out ends the session it runs with, so it goes last. */
export function orderForRun(entries: AccessEntry[]): AccessEntry[] {
  const last = (e: AccessEntry) => (e.path.endsWith("#signOutAction") ? 1 : 0);
  return [...entries].sort((a, b) => last(a) - last(b));
}
