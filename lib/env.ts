import path from "node:path";
import { z } from "zod";

/** Where the data lives: the embedded SQLite file (default) or a PostgreSQL server. */
export type DatabaseConfig =
  | { provider: "sqlite"; file: string; url: string }
  | { provider: "postgresql"; url: string };

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

export const envSchema = z.object({
  DATABASE_URL: databaseUrlSchema,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Seed demo trajectories into an empty database on `npm start` (default on). */
  RETERM_DEMO: booleanFlag.transform((v) => v ?? true),
  RETERM_DEMO_TRAJECTORIES: z.coerce.number().int().min(0).max(1_000_000).default(120),
  /** Largest accepted upload, in megabytes. */
  RETERM_MAX_UPLOAD_MB: z.coerce.number().positive().max(100_000).default(512),
  /** Name of the acting user until accounts exist (issue: users/roles). */
  RETERM_USER: z.string().trim().min(1).max(64).default("local-admin"),
  /** Folder for finished background exports (issue 10); default: reterm-exports in the OS temp folder. */
  RETERM_EXPORT_DIR: z.string().trim().min(1).optional(),
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
