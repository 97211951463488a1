// The identity dimension of the matrix: every page and route handler with each kind of credentials a request can
// carry — none, a revoked API token, an unknown one, a Basic header, a valid token (a viewer's, so role checks through
// a token are covered too). Bad credentials must end at the sign-in page (pages) or 401 (routes), never an error.
import { expected, runEntry, type Outcome } from "./run-matrix.ts";
import { ACCESS_TABLE, type Need } from "./access-table.ts";
import type { ServiceContext } from "../../../lib/services/context.ts";

export type Identity = "no header" | "revoked token" | "unknown token" | "Basic header" | "valid token";
export const IDENTITIES: Identity[] = ["no header", "revoked token", "unknown token", "Basic header", "valid token"];

/** Authorization headers for each identity; the tokens belong to a new viewer account. */
export async function makeIdentities(admin: ServiceContext): Promise<Map<Identity, Headers>> {
  const { createUser } = await import("../../../lib/services/accounts/manage-users.ts");
  const { createApiTokenFor, revokeApiToken } = await import("../../../lib/services/accounts/api-tokens.ts");
  await createUser(admin, { name: "identity-viewer", role: "viewer" });
  const valid = await createApiTokenFor(admin, { tokenName: "valid", userName: "identity-viewer" });
  const revoked = await createApiTokenFor(admin, { tokenName: "revoked", userName: "identity-viewer" });
  await revokeApiToken(admin, revoked.id);
  return new Map<Identity, Headers>([
    ["no header", new Headers()],
    ["revoked token", new Headers({ authorization: `Bearer ${revoked.token}` })],
    ["unknown token", new Headers({ authorization: `Bearer rt_${"x".repeat(43)}` })],
    ["Basic header", new Headers({ authorization: `Basic ${Buffer.from("someone:secret").toString("base64")}` })],
    ["valid token", new Headers({ authorization: `Bearer ${valid.token}` })],
  ]);
}

export function expectedFor(need: Need, who: Identity, mode: "team" | "local"): Outcome {
  if (need === "public") return "ok";
  if (who === "valid token") return expected(need, "viewer");
  if (who === "no header") return mode === "local" ? "ok" : "sign-in";
  return "sign-in";
}

/** Runs pages and route handlers (server actions are covered by the role matrix) and lists every mismatch. */
export async function runIdentityMatrix(
  mode: "team" | "local",
  headers: Map<Identity, Headers>,
  setPageHeaders: (h: Headers) => void,
): Promise<{ mismatches: string[]; checked: number }> {
  const mismatches: string[] = [];
  let checked = 0;
  for (const [who, h] of headers) {
    for (const entry of ACCESS_TABLE) {
      if (entry.kind === "action") continue;
      setPageHeaders(h);
      let got: string;
      try {
        got = await runEntry(entry, h);
      } catch (e) {
        got = `error (${(e as Error).message.slice(0, 80)})`;
      }
      const want = expectedFor(entry.need, who, mode);
      checked++;
      if (got !== want)
        mismatches.push(
          `${mode} ${who.padEnd(13)} ${entry.kind} ${"method" in entry ? entry.method + " " : ""}${entry.path}: got ${got}, want ${want}`,
        );
    }
  }
  return { mismatches, checked };
}

export const IDENTITY_ENTRIES = ACCESS_TABLE.filter((e) => e.kind !== "action").length;
