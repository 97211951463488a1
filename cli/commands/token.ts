// `reterm token create --user NAME [--name LABEL]` (prints the token as the last line) and `token revoke ID`.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { createApiTokenFor, listApiTokens, revokeApiToken } from "../../lib/services/accounts/api-tokens.ts";
import { usernameSchema } from "../../lib/domain/accounts.ts";

export const TOKEN_HELP = `token create --user NAME [--name LABEL]
                               issue an API token acting as NAME (the token is the last line printed, shown once)
  token revoke ID              revoke an API token
  token list                   all API tokens: id, owner, name, last use`;

export async function tokenCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "create") {
    const { values } = parseCommandArgs(
      rest,
      { user: { type: "string" }, name: { type: "string" } },
      z.object({
        user: usernameSchema,
        name: z.string().trim().min(1).max(100).default("cli"),
      }),
    );
    await setupDatabase(getEnv().DATABASE_URL);
    const t = await createApiTokenFor(await getCliContext(), { userName: values.user, tokenName: values.name });
    console.log(`Token ${t.id} for ${t.userName} ("${values.name}"); keep it secret, it is not shown again:`);
    console.log(t.token);
  } else if (sub === "revoke") {
    const { positionals } = parseCommandArgs(rest, {}, z.object({}));
    const id = z.string().trim().min(1).max(64).safeParse(positionals[0]);
    if (!id.success) throw new UsageError("usage: token revoke ID (see token list)");
    await setupDatabase(getEnv().DATABASE_URL);
    const r = await revokeApiToken(await getCliContext(), id.data);
    console.log(r.revoked ? `Revoked ${id.data}.` : `${id.data} was already revoked.`);
  } else if (sub === "list") {
    parseCommandArgs(rest, {}, z.object({}));
    await setupDatabase(getEnv().DATABASE_URL);
    for (const t of await listApiTokens(await getCliContext(), { all: true })) {
      const state = t.revokedAt ? "revoked" : t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : "never used";
      console.log(`${t.id}  ${t.userName.padEnd(20)} ${t.name.padEnd(20)} ${state}`);
    }
  } else {
    throw new UsageError(`usage: ${TOKEN_HELP}`);
  }
}
