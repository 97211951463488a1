import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseTrustedProxies, type TrustedRange } from "./domain/network/client-address.ts";

/** Where the data lives: the embedded SQLite file (default) or a PostgreSQL server. */
export type DatabaseConfig = { provider: "sqlite"; file: string; url: string } | { provider: "postgresql"; url: string };

export const DEFAULT_SQLITE_FILE = "data/reterm.db";

const databaseUrlSchema = z
  .string()
  .trim()
  .optional()
  .transform((raw, ctx): DatabaseConfig => {
    if (!raw) {
      const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), DEFAULT_SQLITE_FILE);
      return { provider: "sqlite", file, url: `file:${file}` };
    }
    if (raw.startsWith("file:")) {
      const rest = raw.slice("file:".length).replace(/^\/\/(?=\/)/, "");
      if (!rest) {
        ctx.addIssue({ code: "custom", message: "a file: URL needs a path, e.g. file:./data/reterm.db" });
        return z.NEVER;
      }
      const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), rest);
      return { provider: "sqlite", file, url: `file:${file}` };
    }
    if (/^postgres(ql)?:\/\//.test(raw)) {
      try {
        new URL(raw);
      } catch {
        ctx.addIssue({ code: "custom", message: "is not a valid postgresql:// URL" });
        return z.NEVER;
      }
      return { provider: "postgresql", url: raw };
    }
    ctx.addIssue({
      code: "custom",
      message: `must be unset (embedded SQLite), file:/path/to.db (SQLite) or postgresql://user@host:5432/db — got "${raw.slice(0, 40)}"`,
    });
    return z.NEVER;
  });

const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : ["1", "true", "yes"].includes(v)));

/** One allowed Host name: a DNS name (".example.com" also allows its subdomains), an IPv4 or bracketed IPv6 address, or "*". */
const hostEntry = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*|\.?[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*\.?|\[[0-9a-f:.]+\])$/,
    "must be a host name without scheme, port or path (e.g. reterm.lab.example, .lab.example, 10.0.0.5, [fd00::5]) or *",
  );

const hostList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean),
  )
  .pipe(z.array(hostEntry).max(100));

const trustedProxies = z
  .string()
  .optional()
  .transform((v, ctx): TrustedRange[] => {
    try {
      return parseTrustedProxies(v);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
      return z.NEVER;
    }
  });

export const envSchema = z.object({
  DATABASE_URL: databaseUrlSchema,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Seed demo trajectories into an empty database on `npm start` (default on). */
  RETERM_DEMO: booleanFlag.transform((v) => v ?? true),
  // Enough that each of the demo's 21 runs (3 models × base + 3 checkpoints of 2 trained methods) has ~10 rollouts.
  RETERM_DEMO_TRAJECTORIES: z.coerce.number().int().min(0).max(1_000_000).default(800),
  /** Largest accepted upload, in megabytes. */
  RETERM_MAX_UPLOAD_MB: z.coerce.number().positive().max(100_000).default(512),
  /** Largest JSON body accepted by POST /api/v1/trajectories, in megabytes (held in memory while parsed). */
  RETERM_MAX_API_BODY_MB: z.coerce.number().positive().max(4096).default(128),
  /** Largest single trajectory in a JSON/NDJSON body, in megabytes (the file importers' line cap). */
  RETERM_MAX_RECORD_MB: z.coerce.number().positive().max(4096).default(64),
  /** Most entries an uploaded zip may have (counted from its central directory before unpacking). */
  RETERM_MAX_ZIP_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * Host names the server answers to besides loopback (localhost, *.localhost, 127.0.0.0/8, [::1]): comma-separated.
   * Any other Host header is refused (DNS rebinding). "*" turns the check off (only behind a proxy that checks Host).
   */
  RETERM_ALLOWED_HOSTS: hostList,
  /**
   * Proxies whose X-Forwarded-For / Forwarded / X-Real-IP are believed: comma-separated IPs or CIDR ranges of the
   * direct peer (10.0.0.5, 10.0.0.0/8, fd00::/8). None by default: the socket's address is the client's.
   */
  RETERM_TRUSTED_PROXIES: trustedProxies,
  /** Name of the acting user in local mode (no sign-in). */
  RETERM_USER: z.string().trim().min(1).max(64).default("local-admin"),
  /** Address `npm start` binds to. Loopback (the default) allows local mode; anything else means team mode. */
  HOST: z
    .string()
    .trim()
    .max(255)
    .optional()
    .transform((v) => v || "127.0.0.1"),
  /** on: always require sign-in (team mode); off: local mode, refused unless HOST is loopback; unset: from HOST. */
  RETERM_AUTH: z
    .enum(["on", "off", ""])
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Signs session cookies (team mode). `npm start` generates and keeps one in data/auth-secret when unset; any other
   * way of starting team mode needs it set (or that file present), else the server refuses to start. */
  RETERM_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Public URL of the dashboard, e.g. https://reterm.lab.example; https makes session cookies Secure. */
  RETERM_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Folder for finished background exports; default: reterm-exports in the OS temp folder. RETERM_STORAGE wins. */
  RETERM_EXPORT_DIR: z.string().trim().min(1).optional(),
  /** Where files written for later download are kept: `s3://bucket/prefix` (S3-compatible object storage, with the
   * AWS SDK's variables for credentials, region and AWS_ENDPOINT_URL_S3) or a directory; unset: RETERM_EXPORT_DIR. */
  RETERM_STORAGE: z.string().trim().min(1).optional(),
  /** Background jobs in this process: on (default; `npm start` runs web and jobs together) or off (a web replica that
   * only queues jobs for `npm run worker` processes). */
  RETERM_JOBS: z.enum(["on", "off"]).default("on"),
  /** Seconds without a heartbeat after which a running job's worker is taken to be dead and the job is queued again. */
  RETERM_JOB_STALE_SECONDS: z.coerce.number({ message: "must be a number of seconds" }).min(1).max(3600).default(60),
  /** Jobs of each kind one process runs at once. */
  RETERM_JOB_CONCURRENCY: z.coerce.number({ message: "must be a whole number" }).int().min(1).max(16).default(1),
  /** Requests a minute one API token may send (0: no limit). Counted in the database on PostgreSQL, so across every
   * replica; in the process on SQLite. */
  RETERM_API_RATE_LIMIT: z.coerce.number({ message: "must be a whole number" }).int().min(0).max(1_000_000).default(600),
  /** Days a finished export file is kept before it is deleted; a newer export of the same version and format
   * replaces it sooner. Fractions allowed (0.5 = 12 hours). */
  RETERM_EXPORT_RETENTION_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .positive("must be more than 0")
    .max(3650)
    .default(7),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parse an environment (process.env by default); throws EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`));
  }
  return result.data;
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Loopback addresses: only processes on this machine can reach a server bound to them. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Local mode (no sign-in; the person at the machine is RETERM_USER, an admin) only when bound to loopback and
 * RETERM_AUTH is not "on". Everything else is team mode: every page, route handler and action needs a user.
 */
export function authMode(env: Pick<Env, "HOST" | "RETERM_AUTH">): "local" | "team" {
  if (env.RETERM_AUTH === "on") return "team";
  if (env.RETERM_AUTH === "off" && !isLoopbackHost(env.HOST)) {
    throw new EnvError([`RETERM_AUTH: "off" is only allowed with a loopback HOST (got HOST=${env.HOST}); remove it to sign in as a team`]);
  }
  return isLoopbackHost(env.HOST) ? "local" : "team";
}

/**
 * Absolute base for URLs the dashboard publishes (Open Graph / Twitter images, canonical links): RETERM_BASE_URL when
 * set, else where `npm start` listens — a wildcard bind address (0.0.0.0, ::) is not an address a browser can open,
 * so it becomes localhost.
 */
export function publicBaseUrl(env: Pick<Env, "RETERM_BASE_URL" | "HOST" | "PORT">): URL {
  if (env.RETERM_BASE_URL) return new URL(env.RETERM_BASE_URL);
  const bare = env.HOST.replace(/^\[|\]$/g, "");
  const host = bare === "0.0.0.0" || bare === "::" || bare === "" ? "localhost" : bare.includes(":") ? `[${bare}]` : bare;
  return new URL(`http://${host}:${env.PORT}`);
}

/** Where `npm start` keeps the session secret it generated (see lib/services/accounts/team-mode.ts). */
export function authSecretFile(dataDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data")): string {
  return path.join(dataDir, "auth-secret");
}

/**
 * The session-signing secret that survives a restart: RETERM_AUTH_SECRET, else the one `npm start` kept in
 * data/auth-secret; null when there is neither. Read only: generating one is `npm start`'s job, because a secret
 * made up by a server process would be gone (and every session with it) at its next restart.
 */
export function persistentAuthSecret(env: Pick<Env, "RETERM_AUTH_SECRET">, file = authSecretFile()): string | null {
  if (env.RETERM_AUTH_SECRET) return env.RETERM_AUTH_SECRET;
  try {
    const s = fs.readFileSync(file, "utf8").trim();
    return s.length >= 32 ? s : null;
  } catch {
    return null;
  }
}

export const MISSING_AUTH_SECRET =
  "team mode needs a persistent session secret: set RETERM_AUTH_SECRET (32+ characters, e.g. from `openssl rand -hex 32`) or start with `npm start`, which keeps one in data/auth-secret";
