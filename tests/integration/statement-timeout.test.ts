// A search narrowed to candidates runs under a statement budget and falls back when PostgreSQL cancels it
// (trajectories.ts). The fallback hangs on isStatementTimeout recognising the error exactly as Prisma reports it, so
// this provokes a real cancellation rather than describing one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { isStatementTimeout } from "../../lib/db/statement-timeout.ts";

const pg = PROVIDERS.find((p) => p.provider === "postgresql")!;

describe(`statement budgets on ${pg.title}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!pg.skip) t = await createTestDatabase("postgresql");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(pg.skip)("recognises a statement cancelled by its budget, and nothing else", async () => {
    const cancelled = await t.db
      .$transaction([t.db.$queryRaw`SELECT set_config('statement_timeout', '50', true)`, t.db.$queryRaw`SELECT 1 AS "x" FROM pg_sleep(2)`])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(cancelled).not.toBeNull();
    expect(isStatementTimeout(cancelled)).toBe(true);
    // Other failures are not mistaken for it.
    const syntax = await t.db.$queryRaw`SELECT * FROM "no_such_table"`.then(
      () => null,
      (e: unknown) => e,
    );
    expect(syntax).not.toBeNull();
    expect(isStatementTimeout(syntax)).toBe(false);
    // The budget is the transaction's own: the next statement runs without it.
    await expect(t.db.$queryRaw`SELECT 1 AS "x" FROM pg_sleep(0.1)`).resolves.toBeDefined();
  });
});
