// What it costs a request to find out who is calling, per way of calling: local mode (baseline: a cached user),
// an API token (hash + lookup + last-used update) and a team-mode session cookie (better-auth's session lookup plus
// the user's current role). Also one full sign-in (scrypt). SQLite and PostgreSQL; bounded; prints ratios.
// Usage: nice -n 5 npx tsx bench/auth.ts [iterations=400] [--skip-pg]
process.env.RETERM_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0";
import { createTestDatabase, postgres, type Provider } from "../tests/helpers/test-db.ts";
import { createUser } from "../lib/services/accounts/manage-users.ts";
import { createApiTokenFor } from "../lib/services/accounts/api-tokens.ts";
import { findSessionActor, signInWithPassword } from "../lib/db/auth/credentials.ts";
import { findActorByTokenHash } from "../lib/db/repositories/accounts/tokens.ts";
import { sha256 } from "../lib/domain/hash.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";

const iterations = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 400);
const providers: Provider[] = process.argv.includes("--skip-pg") || !postgres.available ? ["sqlite"] : ["sqlite", "postgresql"];

async function perCall(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return (performance.now() - t0) / iterations;
}

for (const provider of providers) {
  const t = await createTestDatabase(provider);
  const { name, password } = await createUser(t.ctx, { name: "bench-user", role: "researcher" });
  const { token } = await createApiTokenFor(t.ctx, { tokenName: "bench" });
  const signed = await signInWithPassword(t.db, name, password, new Headers(), "127.0.0.1");
  if (!signed.ok) throw new Error("sign-in failed");
  const cookie = new Headers({
    cookie: signed.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  });
  // Local mode resolves its user once per process; the honest per-request baseline is that user lookup.
  const local = await perCall(() => ensureUser(t.db, "test-admin", "admin"));
  const tokenMs = await perCall(() => findActorByTokenHash(t.db, sha256(token)));
  const sessionMs = await perCall(() => findSessionActor(t.db, cookie));
  const t0 = performance.now();
  for (let i = 0; i < 5; i++) await signInWithPassword(t.db, name, password, new Headers(), "127.0.0.1");
  const signInMs = (performance.now() - t0) / 5;
  console.log(
    `${provider.padEnd(10)} user lookup (baseline) ${local.toFixed(2)} ms | API token ${tokenMs.toFixed(2)} ms (${(tokenMs / local).toFixed(2)}×) | ` +
      `session cookie ${sessionMs.toFixed(2)} ms (${(sessionMs / local).toFixed(2)}×) | full sign-in ${signInMs.toFixed(1)} ms (${(signInMs / local).toFixed(0)}×)`,
  );
  await t.drop();
}
