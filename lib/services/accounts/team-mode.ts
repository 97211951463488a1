// Start-up checks for team mode: an admin who can sign in must exist (no default password anywhere), and session
// cookies need a stable signing secret — RETERM_AUTH_SECRET, or one generated once and kept in data/auth-secret.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { getDb, type Db } from "../../db/client.ts";
import { countAdminsWithPassword } from "../../db/repositories/accounts/users.ts";
import { authSecretFile, persistentAuthSecret } from "../../env.ts";
import { AppError } from "../../errors.ts";

/**
 * A check of the database `npm start` makes before serving, not an action of a user: it takes no actor, so starting
 * a team server never needs (or creates) an account to act as.
 */
export async function assertTeamModeReady(db: Db = getDb()): Promise<void> {
  if ((await countAdminsWithPassword(db)) === 0) {
    throw new AppError(
      "CONFIG",
      "Team mode needs an admin who can sign in, and there is none. Create one with\n" +
        "  npm run reterm -- user add NAME --role admin\n" +
        "(it prints the password once), or run on 127.0.0.1 without RETERM_AUTH=on for local mode.",
    );
  }
}

/** The configured secret, else the one kept in `<dataDir>/auth-secret` (created 0600 on first use). */
export function loadAuthSecret(configured: string | undefined, dataDir: string): string {
  const file = authSecretFile(dataDir);
  const existing = persistentAuthSecret({ RETERM_AUTH_SECRET: configured }, file);
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}
