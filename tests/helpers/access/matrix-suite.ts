// The route × role matrix as a vitest suite for one database provider (one provider per test file: the server code
// under test uses the process-wide database client). Team mode: every principal is checked against the table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "../test-db.ts";
import { ACCESS_TABLE } from "./access-table.ts";
import path from "node:path";
import { findActions, findPages, findRoutes, ROOT } from "./enumerate.ts";
import { expected, orderForRun, PRINCIPALS, runEntry, setPageFiles, type Principal } from "./run-matrix.ts";
import { IDENTITIES, IDENTITY_ENTRIES, makeIdentities, runIdentityMatrix } from "./identity-matrix.ts";

export const mockedHeaders = { current: new Headers() };

/** Hundreds of page renders and handler calls in one test: minutes on a busy shared machine, not the default minute. */
const MATRIX_TIMEOUT = 300_000;

export function defineMatrixSuite(provider: Provider): void {
  const target = PROVIDERS.find((p) => p.provider === provider)!;

  describe("every page, route handler and server action has an entry in the access table", () => {
    it("file system ⇄ table", () => {
      const onDisk = [
        ...findPages().map((p) => `page ${p.path}`),
        ...findRoutes().map((r) => `route ${r.method} ${r.path}`),
        ...findActions().map((a) => `action ${a.path}`),
      ].sort();
      const inTable = ACCESS_TABLE.map((e) => (e.kind === "route" ? `route ${e.method} ${e.path}` : `${e.kind} ${e.path}`)).sort();
      expect(
        onDisk.filter((x) => !inTable.includes(x)),
        "add a line to tests/helpers/access/access-table.ts",
      ).toEqual([]);
      expect(
        inTable.filter((x) => !onDisk.includes(x)),
        "table lines without a file",
      ).toEqual([]);
    });

    it("every server action is made by defineAction and declares what the table requires", async () => {
      const wrong: string[] = [];
      for (const entry of ACCESS_TABLE) {
        if (entry.kind !== "action") continue;
        const [rel, name] = entry.path.split("#") as [string, string];
        const fn = ((await import(path.join(ROOT, rel))) as Record<string, unknown>)[name];
        const need = typeof fn === "function" && "need" in fn ? fn.need : undefined;
        if (need !== entry.need) wrong.push(`${entry.path}: declares ${String(need)}, table says ${entry.need}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  describe(`route × role matrix (${target.title})`, () => {
    let t: TestDatabase;
    const cookies = new Map<Principal, string>();

    beforeAll(async () => {
      if (target.skip) return;
      t = await createTestDatabase(provider);
      process.env.DATABASE_URL = t.config.url;
      const { createUser } = await import("../../../lib/services/accounts/manage-users.ts");
      const { signIn } = await import("../../../lib/services/accounts/sign-in.ts");
      for (const role of PRINCIPALS) {
        if (role === "anonymous") continue;
        const { name, password } = await createUser(t.ctx, { name: `matrix-${role}`, role });
        const out = await signIn({ username: name, password }, new Headers());
        if (!out.ok) throw new Error(`could not sign in as ${role}`);
        cookies.set(role, out.cookies.map((c) => c.split(";")[0]).join("; "));
      }
      setPageFiles(findPages());
    });
    afterAll(async () => {
      if (target.skip) return;
      const { closeDatabase } = await import("../../../lib/services/system/setup-database.ts");
      await closeDatabase();
      await t?.drop();
    });

    it.skipIf(target.skip)(
      "each principal gets exactly what the table allows",
      async () => {
        const mismatches: string[] = [];
        let checked = 0;
        for (const who of PRINCIPALS) {
          for (const entry of orderForRun(ACCESS_TABLE)) {
            const h = new Headers(cookies.has(who) ? { cookie: cookies.get(who)! } : {});
            mockedHeaders.current = h;
            const got = await runEntry(entry, h);
            const want = expected(entry.need, who);
            checked++;
            if (got !== want)
              mismatches.push(
                `${who.padEnd(10)} ${entry.kind} ${"method" in entry ? entry.method + " " : ""}${entry.path}: got ${got}, want ${want}`,
              );
          }
        }
        expect(mismatches).toEqual([]);
        expect(checked).toBe(ACCESS_TABLE.length * PRINCIPALS.length);
      },
      MATRIX_TIMEOUT,
    );

    it.skipIf(target.skip)(
      "each kind of credentials on every page and route: sign-in or 401, never an error",
      async () => {
        const identities = await makeIdentities(t.ctx);
        const { mismatches, checked } = await runIdentityMatrix("team", identities, (h) => (mockedHeaders.current = h));
        expect(mismatches).toEqual([]);
        expect(checked).toBe(IDENTITY_ENTRIES * IDENTITIES.length);
      },
      MATRIX_TIMEOUT,
    );
  });
}

/** Local mode (no sign-in): the same identity matrix; only the absence of credentials differs (the local admin acts). */
export function defineLocalIdentitySuite(provider: Provider): void {
  const target = PROVIDERS.find((p) => p.provider === provider)!;
  describe(`identity matrix, local mode (${target.title})`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      if (target.skip) return;
      t = await createTestDatabase(provider);
      process.env.DATABASE_URL = t.config.url;
      setPageFiles(findPages());
    });
    afterAll(async () => {
      if (target.skip) return;
      const { closeDatabase } = await import("../../../lib/services/system/setup-database.ts");
      await closeDatabase();
      await t?.drop();
    });

    it.skipIf(target.skip)(
      "each kind of credentials on every page and route: sign-in or 401, never an error",
      async () => {
        const { currentAuthMode } = await import("../../../lib/services/accounts/authenticate.ts");
        expect(currentAuthMode()).toBe("local");
        const identities = await makeIdentities(t.ctx);
        const { mismatches, checked } = await runIdentityMatrix("local", identities, (h) => (mockedHeaders.current = h));
        expect(mismatches).toEqual([]);
        expect(checked).toBe(IDENTITY_ENTRIES * IDENTITIES.length);
      },
      MATRIX_TIMEOUT,
    );
  });
}

/** vi.mock factories shared by the matrix test files (vi.mock itself must sit in each test file). */
export const nextHeadersMock = () => ({
  headers: async () => mockedHeaders.current,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
});
