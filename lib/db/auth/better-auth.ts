// better-auth, bound to our Prisma client: it owns password hashing (scrypt), session tokens and their cookies.
// It lives in lib/db because its adapter talks to Prisma; services reach it through lib/services/accounts only.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { username } from "better-auth/plugins";
import { randomBytes } from "node:crypto";
import { configOf, type Db } from "../client.ts";
import { authMode, getEnv, MISSING_AUTH_SECRET, persistentAuthSecret, type Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { USERNAME_PATTERN } from "../../domain/accounts.ts";

/** The one header better-auth reads a client address from; credentials.ts fills it with the resolved address. */
export const CLIENT_ADDRESS_HEADER = "x-reterm-client-address";

/** Sessions last a week and slide forward once a day while used. */
const SESSION_SECONDS = 7 * 24 * 3600;

/**
 * Local mode never issues sessions, so a per-process secret there is harmless. Team mode must have one that survives
 * a restart (else every restart signs everyone out): instrumentation.ts refuses to start the server without it, and
 * this refuses too, for anything that reaches sessions some other way.
 */
function sessionSecret(env: Env): string {
  const secret = persistentAuthSecret(env);
  if (secret) return secret;
  if (authMode(env) === "team") throw new AppError("CONFIG", MISSING_AUTH_SECRET);
  return randomBytes(32).toString("hex");
}

function createAuth(db: Db) {
  const env = getEnv();
  return betterAuth({
    appName: "ReTerm Studio",
    secret: sessionSecret(env),
    baseURL: env.RETERM_BASE_URL ?? `http://${env.HOST}:${env.PORT}`,
    database: prismaAdapter(db, { provider: configOf(db).provider === "postgresql" ? "postgresql" : "sqlite" }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_SECONDS, updateAge: 24 * 3600 },
    advanced: {
      cookiePrefix: "reterm",
      useSecureCookies: (env.RETERM_BASE_URL ?? "").startsWith("https:"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      database: { generateId: false },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // Sign-in is throttled per account and per (account, address) by lib/services/accounts/sign-in-throttle.ts (server-side calls
    // bypass better-auth's own limiter, which guards only its HTTP endpoints, which we do not mount).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // A wrong password is expected traffic (and audited); only real failures belong in the server log.
    logger: { level: "error" },
    plugins: [username({ minUsernameLength: 2, maxUsernameLength: 64, usernameValidator: (u) => USERNAME_PATTERN.test(u) }), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Db, Auth>();

/** The better-auth instance for a database client (one per client, created on first use). */
export function getAuthFor(db: Db): Auth {
  let auth = instances.get(db);
  if (!auth) instances.set(db, (auth = createAuth(db)));
  return auth;
}
