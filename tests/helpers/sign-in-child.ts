// Another server process (a replica) trying wrong passwords on a shared database, for the throttle tests: as
// cli/next-server.mjs would, it marks the process and hands the peer over in its header. Prints the outcomes as JSON.
//   node --import tsx tests/helpers/sign-in-child.ts '<DatabaseConfig JSON>' <username> <peer> <attempts>
export {};
process.env.RETERM_AUTH = "on";
process.env.RETERM_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
const { createDb } = await import("../../lib/db/client.ts");
const { signIn } = await import("../../lib/services/accounts/sign-in.ts");
const { markPeerHeaderSet, PEER_HEADER } = await import("../../cli/peer-header.mjs");

const [configJson, username, peer, attempts] = process.argv.slice(2) as [string, string, string, string];
markPeerHeaderSet();
const db = createDb(JSON.parse(configJson));
const outcomes: string[] = [];
for (let i = 0; i < Number(attempts); i++) {
  const out = await signIn({ username, password: `child-wrong-${i}` }, new Headers({ [PEER_HEADER]: peer }), db);
  outcomes.push(out.ok ? "ok" : out.reason);
}
await db.$disconnect();
console.log(JSON.stringify(outcomes));
