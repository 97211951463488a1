// `reterm user add|set-role|reset-password|disable|enable|delete|list`: manage accounts from the machine the server
// runs on, acting as the account RETERM_USER names (lib/services/cli-context.ts; `user add` also bootstraps the first).
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import {
  createUser,
  deleteUser,
  disableUser,
  enableUser,
  listUsers,
  resetPassword,
  setUserRole,
} from "../../lib/services/accounts/manage-users.ts";
import { roleSchema, usernameSchema } from "../../lib/domain/accounts.ts";

export const USER_HELP = `user add NAME --role ROLE    create an account (admin|researcher|annotator|viewer); prints its password once
  user set-role NAME ROLE      change a role (ends the user's sessions)
  user reset-password NAME     new generated password, printed once (ends the user's sessions)
  user disable NAME            stop an account: ends its sessions, revokes its API tokens, refuses its sign-in
  user enable NAME             let a disabled account sign in again (its revoked tokens stay revoked)
  user delete NAME             delete an account for good (its labels and history keep its name; the name stays taken)
  user list                    accounts with role, state, password set, active tokens
                               (the CLI acts as RETERM_USER; on a database with accounts it must name one)`;

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
  // Usage first: `user` alone (or a typo) prints the commands even where no account could be acted as.
  if (!["add", "set-role", "reset-password", "disable", "enable", "delete", "list"].includes(sub ?? ""))
    throw new UsageError(`usage: ${USER_HELP}`);
  await setupDatabase(getEnv().DATABASE_URL);
  // Only `user add` may run before any admin exists (it creates the first one).
  const ctx = await getCliContext({ bootstrap: sub === "add" });
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
  } else if (sub === "disable" || sub === "enable") {
    const { positionals } = parseCommandArgs(rest, {}, z.object({}));
    const name = nameArg(positionals, 0, "NAME");
    const { changed } = await (sub === "disable" ? disableUser : enableUser)(ctx, { name });
    console.log(changed ? `${name} is ${sub}d.` : `${name} was already ${sub}d.`);
  } else if (sub === "delete") {
    const { positionals } = parseCommandArgs(rest, {}, z.object({}));
    const name = nameArg(positionals, 0, "NAME");
    await deleteUser(ctx, { name });
    console.log(`Deleted ${name}: it can no longer sign in or use API tokens; its labels and history keep its name.`);
  } else if (sub === "list") {
    parseCommandArgs(rest, {}, z.object({}));
    for (const u of await listUsers(ctx)) {
      const note = u.localAccount && !u.hasPassword ? "  (local/CLI account: RETERM_USER, cannot sign in)" : "";
      console.log(
        `${u.name.padEnd(24)} ${u.role.padEnd(11)} ${u.state.padEnd(9)} ${u.hasPassword ? "password" : "no password"}  ${u.activeTokens} token(s)${note}`,
      );
    }
  } else {
    throw new UsageError(`usage: ${USER_HELP}`);
  }
}
