// Accounts on both databases: passwords through better-auth, sessions, throttled sign-in, role changes, API tokens,
// and the audit trail they leave. Team mode (RETERM_AUTH=on) for the whole file.
process.env.RETERM_AUTH = "on";
process.env.RETERM_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { createUser, resetPassword, setUserRole, listUsers } from "../../lib/services/accounts/manage-users.ts";
import { createApiTokenFor, listApiTokens, revokeApiToken } from "../../lib/services/accounts/api-tokens.ts";
import { signIn } from "../../lib/services/accounts/sign-in.ts";
import { findRequestContext, resolveRequestContext } from "../../lib/services/accounts/authenticate.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";
import { SIGN_IN_LIMITS } from "../../lib/services/accounts/sign-in-throttle.ts";
import { markPeerHeaderSet, PEER_HEADER } from "../../cli/peer-header.mjs";

// As cli/next-server.mjs does: the process vouches for the peer header it sets.
markPeerHeaderSet();
const cookieHeader = (cookies: string[]) => cookies.map((c) => c.split(";")[0]).join("; ");
const from = (address: string) => new Headers({ [PEER_HEADER]: address });

describe.each(PROVIDERS)("accounts ($title)", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => t?.drop());

  it.skipIf(skip)("creates a user whose generated password signs in; the session cookie names the user and role", async () => {
    const { password, name } = await createUser(t.ctx, { name: `Rita-${provider}`, role: "researcher" });
    expect(name).toBe(`rita-${provider}`);
    expect(password.length).toBeGreaterThanOrEqual(20);
    const stored = await t.db.account.findFirstOrThrow({ where: { user: { name } } });
    expect(stored.password).not.toContain(password); // a hash, not the password
    const out = await signIn({ username: name, password }, from("10.0.0.1"), t.db);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const cookie = cookieHeader(out.cookies);
    expect(out.cookies.join(" ")).toMatch(/HttpOnly/i);
    expect(out.cookies.join(" ")).toMatch(/SameSite=Lax/i);
    const ctx = await resolveRequestContext(new Headers({ cookie }), t.db);
    expect(ctx.actor).toMatchObject({ name, role: "researcher" });
    expect(await findRequestContext(new Headers(), t.db)).toBeNull();
    await expect(resolveRequestContext(new Headers({ cookie: "reterm.session_token=forged.value" }), t.db)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });

  it.skipIf(skip)("slows brute force: after the per-account limit even the right password is refused, from any address", async () => {
    const { name, password } = await createUser(t.ctx, { name: `bruce-${provider}`, role: "viewer" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect(await signIn({ username: name, password: `wrong-${i}` }, from(`10.1.0.${i}`), t.db)).toEqual({ ok: false, reason: "invalid" });
    }
    const blocked = await signIn({ username: name, password }, from("10.2.0.1"), t.db);
    expect(blocked).toMatchObject({ ok: false, reason: "throttled" });
    if (!blocked.ok && blocked.reason === "throttled") expect(blocked.retryAfterSeconds).toBeGreaterThan(60);
    const failures = await listAuditEvents(t.ctx, { action: "auth.sign-in-failed", actor: name, limit: 100 });
    expect(failures).toHaveLength(SIGN_IN_LIMITS.perAccount);
  });

  it.skipIf(skip)("a role change ends the user's sessions; the last admin cannot be demoted", async () => {
    const { name, password } = await createUser(t.ctx, { name: `ann-${provider}`, role: "annotator" });
    const out = await signIn({ username: name, password }, from("10.3.0.1"), t.db);
    if (!out.ok) throw new Error("sign-in failed");
    await setUserRole(t.ctx, { name, role: "viewer" });
    expect(await findRequestContext(new Headers({ cookie: cookieHeader(out.cookies) }), t.db)).toBeNull();
    await expect(setUserRole(t.ctx, { name: "test-admin", role: "viewer" })).rejects.toMatchObject({ code: "CONFLICT" });
    const viewer = await t.as(name, "viewer");
    await expect(setUserRole(viewer, { name, role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createUser(t.ctx, { name, role: "viewer" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it.skipIf(skip)("a reset password replaces the old one", async () => {
    const { name, password } = await createUser(t.ctx, { name: `pat-${provider}`, role: "viewer" });
    const { password: fresh } = await resetPassword(t.ctx, { name });
    expect((await signIn({ username: name, password }, from("10.4.0.1"), t.db)).ok).toBe(false);
    expect((await signIn({ username: name, password: fresh }, from("10.4.0.1"), t.db)).ok).toBe(true);
    expect((await listUsers(t.ctx)).find((u) => u.name === name)).toMatchObject({ hasPassword: true, role: "viewer" });
  });

  it.skipIf(skip)("API tokens: owners list and revoke their own, a revoked token is 401, others' tokens are invisible", async () => {
    const a = await t.as(`tok-a-${provider}`, "researcher");
    const b = await t.as(`tok-b-${provider}`, "viewer");
    const { id, token } = await createApiTokenFor(a, { tokenName: "pipeline" });
    const stored = await t.db.apiToken.findUniqueOrThrow({ where: { id } });
    expect(stored.tokenHash).not.toBe(token);
    expect((await resolveRequestContext(new Headers({ authorization: `Bearer ${token}` }), t.db)).actor.name).toBe(a.actor.name);
    expect((await listApiTokens(b)).map((x) => x.id)).not.toContain(id);
    await expect(revokeApiToken(b, id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(createApiTokenFor(b, { tokenName: "x", userName: a.actor.name })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await revokeApiToken(a, id)).toEqual({ revoked: true });
    expect(await revokeApiToken(a, id)).toEqual({ revoked: false });
    await expect(resolveRequestContext(new Headers({ authorization: `Bearer ${token}` }), t.db)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    const actions = (await listAuditEvents(t.ctx, { action: "token.", limit: 50 })).map((e) => e.action);
    expect(actions).toEqual(["token.revoke", "token.create"]);
    await expect(listAuditEvents(a, { limit: 10 })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
