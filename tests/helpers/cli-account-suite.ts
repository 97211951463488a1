// The account the CLI acts as (lib/services/cli-context.ts), on one provider per test file (the CLI uses the
// process-wide database client): on a team database it is RETERM_USER or nothing, never a made-up password-less admin;
// `user add` bootstraps the first admin of an empty database and only that.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "./test-db.ts";

export const CLI_USER = "cli-user";

export function defineCliAccountSuite(provider: Provider): void {
  const target = PROVIDERS.find((p) => p.provider === provider)!;
  describe(`the CLI's account (${target.title})`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      if (target.skip) return;
      t = await createTestDatabase(provider);
      process.env.DATABASE_URL = t.config.url;
      // The test database comes with a password-less test-admin; this suite starts from an empty account table.
      await t.db.auditEvent.deleteMany();
      await t.db.user.deleteMany();
    });
    afterAll(async () => {
      if (target.skip) return;
      const { closeDatabase } = await import("../../lib/services/system/setup-database.ts");
      await closeDatabase();
      await t?.drop();
    });

    it.skipIf(target.skip)("bootstraps the first admin without creating RETERM_USER, then refuses to invent it", async () => {
      const { getCliContext } = await import("../../lib/services/cli-context.ts");
      const { createUser, disableUser } = await import("../../lib/services/accounts/manage-users.ts");
      const rows = async () => (await t.db.user.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((u) => u.name);

      const boot = await getCliContext({ bootstrap: true });
      expect(boot.actor).toEqual({ id: "", name: `cli:${CLI_USER}`, role: "admin" });
      const alice = await createUser(boot, { name: "alice", role: "admin" });
      expect(await rows()).toEqual(["alice"]);
      expect(await t.db.auditEvent.findFirst({ where: { action: "user.create" } })).toMatchObject({
        actorId: null,
        actorName: `cli:${CLI_USER}`,
      });

      // The database now has an account that signs in: it is a team database, whatever HOST this shell has.
      await expect(getCliContext()).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
        message: expect.stringContaining(`user add ${CLI_USER} --role admin`),
      });
      await expect(getCliContext({ bootstrap: true })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
      expect(await rows()).toEqual(["alice"]);

      const aliceCtx = { db: t.db, actor: { id: alice.id, name: "alice", role: "admin" as const } };
      await createUser(aliceCtx, { name: CLI_USER, role: "researcher" });
      expect((await getCliContext()).actor).toMatchObject({ name: CLI_USER, role: "researcher" });

      await disableUser(aliceCtx, { name: CLI_USER });
      await expect(getCliContext()).rejects.toMatchObject({ code: "UNAUTHENTICATED", message: expect.stringMatching(/is disabled/) });
    });
  });
}
