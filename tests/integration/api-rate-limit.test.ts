// The API rate limit per token (RETERM_API_RATE_LIMIT) on SQLite and PostgreSQL: the request over the limit is refused
// with RATE_LIMITED and the seconds to wait; on PostgreSQL two servers on one database (two clients here) share the
// count, so a token gets the limit once, not once per replica; other tokens and browser sessions are not affected.
process.env.RETERM_API_RATE_LIMIT = "3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { createDb, type Db } from "../../lib/db/client.ts";
import { createApiTokenFor } from "../../lib/services/accounts/api-tokens.ts";
import { findRequestContext } from "../../lib/services/accounts/authenticate.ts";
import { isAppError } from "../../lib/errors.ts";

const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });

describe.each(PROVIDERS)("API rate limit on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let replicaB: Db;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    replicaB = createDb(t.config);
  });
  afterAll(async () => {
    await replicaB?.$disconnect();
    await t?.drop();
  });

  it.skipIf(skip)("refuses the request over the limit with the seconds to wait, and leaves other tokens alone", async () => {
    const { token } = await createApiTokenFor(t.ctx, { tokenName: "pipeline" });
    const { token: other } = await createApiTokenFor(t.ctx, { tokenName: "other" });
    // Two requests on one server, one on the other: on PostgreSQL they are one count.
    const second = provider === "postgresql" ? replicaB : t.db;
    for (const db of [t.db, t.db, second]) expect((await findRequestContext(bearer(token), db))?.actor.name).toBe("test-admin");
    const refused = await findRequestContext(bearer(token), second).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
    expect(isAppError(refused) && refused.status).toBe(429);
    const wait = isAppError(refused) ? (refused.details as { retryAfter: number }).retryAfter : 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await findRequestContext(bearer(other), t.db))?.actor.name).toBe("test-admin");
  });
});
