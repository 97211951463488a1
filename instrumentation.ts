// Runs once when a Next.js server starts, however it is started (`npm start` → cli/next-server.mjs, `next start`,
// `next dev`): team mode refuses to start without a session secret that survives a restart, in one line, instead of
// signing every user out at the next restart. A team server that cannot see its clients' addresses says so once.
// Background jobs run in the server process unless RETERM_JOBS=off (a web replica beside `npm run worker`).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { authMode, getEnv, MISSING_AUTH_SECRET, persistentAuthSecret } = await import("./lib/env.ts");
  const env = getEnv();
  if (authMode(env) === "team" && !persistentAuthSecret(env)) {
    console.error(`reterm: ${MISSING_AUTH_SECRET}`);
    process.exit(1);
  }
  const { peerHeaderVouched } = await import("./lib/services/accounts/client-address.ts");
  if (authMode(env) === "team" && !peerHeaderVouched()) {
    console.warn(
      'reterm: started without cli/next-server.mjs (npm start), so client addresses are unknown: sign-in is limited per account only, the audit log records "unknown" and RETERM_TRUSTED_PROXIES has no effect',
    );
  }
  if (env.RETERM_JOBS === "on") {
    const [{ getDb }, { startJobWorker }] = await Promise.all([
      import("./lib/db/client.ts"),
      import("./lib/services/jobs/start-worker.ts"),
    ]);
    await startJobWorker(getDb()).catch((e: unknown) => console.error("reterm: background jobs could not start:", e));
  }
}
