// Sign-in throttling with several servers on one database, on both providers. "Replicas" are a child process and
// separate database clients on the same database (as two `npm start` processes would hold); the peer address reaches
// the services as cli/next-server.mjs hands it over (its header, and the process mark it sets). No proxy is trusted
// in this file.
process.env.RETERM_AUTH = "on";
process.env.RETERM_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
delete process.env.RETERM_TRUSTED_PROXIES;
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { createDb, type Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/services/accounts/manage-users.ts";
import { signIn } from "../../lib/services/accounts/sign-in.ts";
import { SIGN_IN_LIMITS } from "../../lib/services/accounts/sign-in-throttle.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";
import { markPeerHeaderSet, PEER_HEADER } from "../../cli/peer-header.mjs";

markPeerHeaderSet();
const ROOT = path.resolve(import.meta.dirname, "../..");
const fromPeer = (peer: string, extra: Record<string, string> = {}) => new Headers({ ...extra, [PEER_HEADER]: peer });

describe.each(PROVIDERS)("sign-in throttle across servers ($title)", ({ provider, skip }) => {
  let t: TestDatabase;
  let replicaA: Db;
  let replicaB: Db;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    replicaA = createDb(t.config);
    replicaB = createDb(t.config);
  });
  afterAll(async () => {
    await replicaA?.$disconnect();
    await replicaB?.$disconnect();
    await t?.drop();
  });

  it.skipIf(skip)("failures counted by one server process are refused by another", async () => {
    const { name, password } = await createUser(t.ctx, { name: `rep-${provider}`, role: "viewer" });
    const attempts = SIGN_IN_LIMITS.perAccountAndAddress + 1;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(ROOT, "tests/helpers/sign-in-child.ts"),
        JSON.stringify(t.config),
        name,
        "203.0.113.10",
        String(attempts),
      ],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual([...Array(attempts - 1).fill("invalid"), "throttled"]);
    const refused = await signIn({ username: name, password }, fromPeer("203.0.113.10"), replicaB);
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    if (!refused.ok && refused.reason === "throttled") expect(refused.retryAfterSeconds).toBeGreaterThan(60);
    // From another address the owner still gets in: one address's guesses do not lock the account.
    expect((await signIn({ username: name, password }, fromPeer("203.0.113.11"), replicaA)).ok).toBe(true);
  });

  it.skipIf(skip)("a spoofed X-Forwarded-For changes nothing: the peer is counted and audited", async () => {
    const { name, password } = await createUser(t.ctx, { name: `spoof-${provider}`, role: "viewer" });
    let refusedAt = -1;
    for (let i = 0; i < 25 && refusedAt < 0; i++) {
      const out = await signIn(
        { username: name, password: `wrong-${i}` },
        fromPeer("203.0.113.20", { "x-forwarded-for": `10.66.0.${i}`, "x-real-ip": `10.67.0.${i}` }),
        i % 2 ? replicaA : replicaB,
      );
      if (!out.ok && out.reason === "throttled") refusedAt = i;
    }
    expect(refusedAt).toBe(SIGN_IN_LIMITS.perAccountAndAddress);
    expect(
      await signIn({ username: name, password }, fromPeer("203.0.113.20", { "x-forwarded-for": "10.66.1.1" }), replicaA),
    ).toMatchObject({ ok: false, reason: "throttled" });
    const failures = await listAuditEvents(t.ctx, { action: "auth.sign-in-failed", actor: name, limit: 100 });
    expect(failures).toHaveLength(SIGN_IN_LIMITS.perAccountAndAddress);
    expect(new Set(failures.map((f) => f.ipAddress))).toEqual(new Set(["203.0.113.20"]));
  });

  it.skipIf(skip)("many failures from one address on other accounts do not lock a clean account out from there", async () => {
    const { name, password } = await createUser(t.ctx, { name: `clean-${provider}`, role: "viewer" });
    // 25 failures from one address, more than an address-wide limit of 20 ever allowed, spread over accounts (real
    // and invented) so that none is itself throttled.
    for (let i = 0; i < 25; i++) {
      const target = i % 5 === 0 ? `ghost-${i}-${provider}` : `clean-${provider}-other-${i % 5}`;
      expect(await signIn({ username: target, password: `guess-${i}` }, fromPeer("198.51.100.30"), i % 2 ? replicaA : replicaB)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    const out = await signIn({ username: name, password }, fromPeer("198.51.100.30"), replicaA);
    expect(out.ok).toBe(true);
    const session = await t.db.session.findFirstOrThrow({ where: { user: { name } } });
    expect(session.ipAddress).toBe("198.51.100.30");
  });

  it.skipIf(skip)("guessing one account is throttled across addresses and servers", async () => {
    const { name, password } = await createUser(t.ctx, { name: `target-${provider}`, role: "viewer" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect(await signIn({ username: name, password: `wrong-${i}` }, fromPeer(`192.0.2.${i + 1}`), i % 2 ? replicaA : replicaB)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    expect(await signIn({ username: name, password }, fromPeer("192.0.2.200"), replicaB)).toMatchObject({ ok: false, reason: "throttled" });
    // Another account from the same addresses is untouched.
    const other = await createUser(t.ctx, { name: `bystander-${provider}`, role: "viewer" });
    expect((await signIn({ username: other.name, password: other.password }, fromPeer("192.0.2.1"), replicaA)).ok).toBe(true);
  });

  it.skipIf(skip)("attempts sent all at once to two servers are counted before any password is checked", async () => {
    const { name } = await createUser(t.ctx, { name: `burst-${provider}`, role: "viewer" });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signIn({ username: name, password: `burst-${i}` }, fromPeer("203.0.113.50"), i % 2 ? replicaA : replicaB),
      ),
    );
    const reasons = outcomes.map((o) => (o.ok ? "ok" : o.reason));
    expect(reasons.filter((r) => r === "invalid")).toHaveLength(SIGN_IN_LIMITS.perAccountAndAddress);
    expect(reasons.filter((r) => r === "throttled")).toHaveLength(12 - SIGN_IN_LIMITS.perAccountAndAddress);
  });

  it.skipIf(skip)("a success clears the account's counts for every server", async () => {
    const { name, password } = await createUser(t.ctx, { name: `owner-${provider}`, role: "viewer" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress - 1; i++)
      await signIn({ username: name, password: `wrong-${i}` }, fromPeer("203.0.113.40"), replicaA);
    expect((await signIn({ username: name, password }, fromPeer("203.0.113.40"), replicaB)).ok).toBe(true);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress - 1; i++) {
      expect(await signIn({ username: name, password: `again-${i}` }, fromPeer("203.0.113.40"), replicaA)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    expect((await signIn({ username: name, password }, fromPeer("203.0.113.40"), replicaA)).ok).toBe(true);
  });
});
