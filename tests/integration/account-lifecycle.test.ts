// Disable, enable and delete accounts on both databases: what each takes away (sessions, API tokens, sign-in), the
// last active admin guard (also under two admins acting at once), what a deleted account leaves readable (its labels
// and audit history), and that every change is audited. Team mode for the whole file.
process.env.RETERM_AUTH = "on";
process.env.RETERM_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { createUser, deleteUser, disableUser, enableUser, listUsers, setUserRole } from "../../lib/services/accounts/manage-users.ts";
import { createApiTokenFor, listApiTokens } from "../../lib/services/accounts/api-tokens.ts";
import { signIn } from "../../lib/services/accounts/sign-in.ts";
import { findRequestContext, resolveRequestContext } from "../../lib/services/accounts/authenticate.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";
import { listLabels } from "../../lib/services/annotation/list-labels.ts";
import type { ServiceContext } from "../../lib/services/context.ts";

const cookieOf = (cookies: string[]) => cookies.map((c) => c.split(";")[0]).join("; ");
const from = () => new Headers();

describe.each(PROVIDERS)("account lifecycle ($title)", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => t?.drop());

  async function signedIn(name: string, password: string): Promise<string> {
    const out = await signIn({ username: name, password }, from(), t.db);
    if (!out.ok) throw new Error(`sign-in failed: ${out.reason}`);
    return cookieOf(out.cookies);
  }

  it.skipIf(skip)(
    "disable ends sessions, revokes tokens and refuses sign-in with a clear reason; enable lets the password in again",
    async () => {
      const { name, password } = await createUser(t.ctx, { name: `dora-${provider}`, role: "researcher" });
      const cookie = await signedIn(name, password);
      const dora = await resolveRequestContext(new Headers({ cookie }), t.db);
      const { token } = await createApiTokenFor(dora, { tokenName: "pipeline" });

      expect(await disableUser(t.ctx, { name })).toEqual({ changed: true });
      expect(await findRequestContext(new Headers({ cookie }), t.db)).toBeNull();
      await expect(findRequestContext(new Headers({ authorization: `Bearer ${token}` }), t.db)).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
      expect((await listApiTokens(t.ctx, { all: true })).filter((x) => x.userName === name).every((x) => x.revokedAt)).toBe(true);
      expect(await signIn({ username: name, password }, from(), t.db)).toEqual({ ok: false, reason: "disabled" });
      // Without the password nobody learns the account is disabled.
      expect(await signIn({ username: name, password: "not-the-password" }, from(), t.db)).toEqual({ ok: false, reason: "invalid" });
      expect((await listUsers(t.ctx)).find((u) => u.name === name)).toMatchObject({ state: "disabled", activeTokens: 0 });
      expect(await disableUser(t.ctx, { name })).toEqual({ changed: false });
      await expect(createApiTokenFor(t.ctx, { tokenName: "late", userName: name })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/is disabled/),
      });

      expect(await enableUser(t.ctx, { name })).toEqual({ changed: true });
      const again = await signedIn(name, password);
      expect((await resolveRequestContext(new Headers({ cookie: again }), t.db)).actor.name).toBe(name);
      // A revoked token stays revoked: enabling gives back sign-in, not old secrets.
      await expect(findRequestContext(new Headers({ authorization: `Bearer ${token}` }), t.db)).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });

      const events = await listAuditEvents(t.ctx, { limit: 50 });
      const mine = events.filter((e) => e.targetId === dora.actor.id && e.action.startsWith("user."));
      expect(mine.map((e) => [e.action, e.actorName])).toEqual([
        ["user.enable", "test-admin"],
        ["user.disable", "test-admin"],
        ["user.create", "test-admin"],
      ]);
    },
  );

  it.skipIf(skip)("the last active admin cannot be disabled, deleted or demoted, nor can an admin disable or delete themself", async () => {
    const admins = (await listUsers(t.ctx)).filter((u) => u.role === "admin" && u.state === "active" && u.name !== "test-admin");
    const operator: ServiceContext = { db: t.db, actor: { id: "", name: "cli:operator", role: "admin" } };
    for (const a of admins) await disableUser(operator, { name: a.name });
    for (const attempt of [
      () => disableUser(operator, { name: "test-admin" }),
      () => deleteUser(operator, { name: "test-admin" }),
      () => setUserRole(operator, { name: "test-admin", role: "viewer" }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/last active admin/) });
    }
    await expect(disableUser(t.ctx, { name: "test-admin" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/your own account/),
    });
    // A disabled admin does not count: enabling one makes test-admin demotable again.
    const { name: other } = await createUser(t.ctx, { name: `root-${provider}`, role: "admin" });
    await setUserRole(operator, { name: "test-admin", role: "viewer" });
    await setUserRole(operator, { name: "test-admin", role: "admin" });
    expect(
      (await listUsers(t.ctx))
        .filter((u) => u.role === "admin" && u.state === "active")
        .map((u) => u.name)
        .sort(),
    ).toEqual([other, "test-admin"].sort());
  });

  it.skipIf(skip)("two admins disabling each other at the same moment: exactly one wins, an active admin remains", async () => {
    const operator: ServiceContext = { db: t.db, actor: { id: "", name: "cli:operator", role: "admin" } };
    const activeAdmins = async () => (await listUsers(t.ctx)).filter((u) => u.role === "admin" && u.state === "active").map((u) => u.name);
    // Exactly two active admins: test-admin and a new one.
    for (const name of await activeAdmins()) if (name !== "test-admin") await disableUser(operator, { name });
    await createUser(t.ctx, { name: `duel-${provider}`, role: "admin" });
    const active = await activeAdmins();
    expect(active).toHaveLength(2);
    const results = await Promise.allSettled(active.map((name) => disableUser(operator, { name })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    expect((await listUsers(t.ctx)).filter((u) => u.role === "admin" && u.state === "active")).toHaveLength(1);
    for (const name of active) await enableUser(operator, { name });
  });

  it.skipIf(skip)(
    "delete: the account can no longer act, its labels and audit history keep its name, the name stays reserved",
    async () => {
      await seedDemo(t.ctx, { count: 2, seed: 11 });
      const traj = await t.db.trajectory.findFirstOrThrow({ where: { parentId: null, stepCount: { gte: 2 } }, select: { id: true } });
      const { name, password } = await createUser(t.ctx, { name: `lena-${provider}`, role: "annotator" });
      const cookie = await signedIn(name, password);
      const lena = await resolveRequestContext(new Headers({ cookie }), t.db);
      const label = await createLabel(lena, { trajectory: traj.id, schema: "error-category", value: "timeout", target: { steps: [0, 1] } });
      const { token } = await createApiTokenFor(lena, { tokenName: "notebook" });

      await deleteUser(t.ctx, { name });
      expect(await findRequestContext(new Headers({ cookie }), t.db)).toBeNull();
      await expect(findRequestContext(new Headers({ authorization: `Bearer ${token}` }), t.db)).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
      expect(await signIn({ username: name, password }, from(), t.db)).toEqual({ ok: false, reason: "invalid" });
      expect(await t.db.account.count({ where: { userId: lena.actor.id } })).toBe(0);

      const { labels } = await listLabels(t.ctx, { trajectory: traj.id });
      expect(labels.find((l) => l.id === label.id)).toMatchObject({ annotatorName: name, value: "timeout" });
      expect((await listAuditEvents(t.ctx, { actor: name, limit: 10 })).map((e) => e.action)).toContain("token.create");
      expect((await listAuditEvents(t.ctx, { action: "user.delete", limit: 10 })).find((e) => e.targetId === lena.actor.id)).toMatchObject({
        actorName: "test-admin",
      });

      expect((await listUsers(t.ctx)).find((u) => u.name === name)).toMatchObject({
        state: "deleted",
        hasPassword: false,
        activeTokens: 0,
      });
      await expect(createUser(t.ctx, { name, role: "viewer" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/deleted account/),
      });
      await expect(enableUser(t.ctx, { name })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(deleteUser(t.ctx, { name })).rejects.toMatchObject({ code: "NOT_FOUND" });
    },
  );

  it.skipIf(skip)("only admins manage account state", async () => {
    const viewer = await t.as(`vic-${provider}`, "viewer");
    await expect(disableUser(viewer, { name: "test-admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(deleteUser(viewer, { name: "test-admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(enableUser(viewer, { name: "test-admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
