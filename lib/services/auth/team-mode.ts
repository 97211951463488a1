// Start-up checks for team mode: an admin who can sign in must exist (no default password anywhere), and session
// cookies need a stable signing secret — RETERM_AUTH_SECRET, or one generated once and kept in data/auth-secret.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { ServiceContext } from "../context.ts";
import { authorize } from "../context.ts";
import { countAdminsWithPassword } from "../../db/repositories/accounts/users.ts";
import { AppError } from "../../errors.ts";

export async function assertTeamModeReady(ctx: ServiceContext): Promise<void> {
  authorize(ctx, "user:manage");
  if ((await countAdminsWithPassword(ctx.db)) === 0) {
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
  if (configured) return configured;
  const file = path.join(dataDir, "auth-secret");
  if (fs.existsSync(file)) {
    const s = fs.readFileSync(file, "utf8").trim();
    if (s.length >= 32) return s;
  }
  if (!fs.existsSync(dataDir)) fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}
