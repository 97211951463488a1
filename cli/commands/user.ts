// `reterm user add|set-role|reset-password|list`: manage accounts from the machine the server runs on.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/setup-database.ts";
import { getLocalContext } from "../../lib/services/context.ts";
import { createUser, listUsers, resetPassword, setUserRole } from "../../lib/services/accounts/manage-users.ts";
import { roleSchema, usernameSchema } from "../../lib/domain/accounts.ts";

export const USER_HELP = `user add NAME --role ROLE    create an account (admin|researcher|annotator|viewer); prints its password once
  user set-role NAME ROLE      change a role (ends the user's sessions)
  user reset-password NAME     new generated password, printed once (ends the user's sessions)
  user list                    accounts with role, password set, active tokens`;

const nameArg = (positionals: string[], i: number, what: string) => {
  const r = usernameSchema.safeParse(positionals[i] ?? "");
  if (!r.success) throw new UsageError(`${what}: ${r.error.issues[0]?.message ?? "missing"}`);
  return r.data;
};
const roleArg = (raw: string | undefined) => {
  const r = roleSchema.safeParse(raw);
  if (!r.success) throw new UsageError(`ROLE must be one of admin, researcher, annotator, viewer (got "${raw ?? ""}")`);
  return r.data;
};

export async function userCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  await setupDatabase(getEnv().DATABASE_URL);
  const ctx = await getLocalContext();
  if (sub === "add") {
    const { values, positionals } = parseCommandArgs(rest, { role: { type: "string" } }, z.object({ role: z.string().optional() }));
    const u = await createUser(ctx, { name: nameArg(positionals, 0, "NAME"), role: roleArg(values.role) });
    console.log(`Created ${u.name}. Password (shown once; change it after signing in):`);
    console.log(u.password);
  } else if (sub === "set-role") {
    const { positionals } = parseCommandArgs(rest, {}, z.object({}));
    const name = nameArg(positionals, 0, "NAME");
    const role = roleArg(positionals[1]);
    await setUserRole(ctx, { name, role });
    console.log(`${name} is now ${role}.`);
  } else if (sub === "reset-password") {
    const { positionals } = parseCommandArgs(rest, {}, z.object({}));
    const name = nameArg(positionals, 0, "NAME");
    const { password } = await resetPassword(ctx, { name });
    console.log(`New password for ${name} (shown once):`);
    console.log(password);
  } else if (sub === "list") {
    parseCommandArgs(rest, {}, z.object({}));
    for (const u of await listUsers(ctx)) {
      console.log(`${u.name.padEnd(24)} ${u.role.padEnd(11)} ${u.hasPassword ? "password" : "no password"}  ${u.activeTokens} token(s)`);
    }
  } else {
    throw new UsageError(`usage: ${USER_HELP}`);
  }
}
