// The account the command line acts as: the one RETERM_USER names (default "local-admin").
// - A local database (no account signs in with a password, and this environment is not team mode): as in local mode,
//   the account is created as admin on first use — it is the person at the machine.
// - A team database (some account has a password, or HOST / RETERM_AUTH say team mode): the account must exist; the
//   CLI never makes up a password-less admin there, it says how to create the account or which to name instead.
// - Bootstrap (`user add` with the named account missing): a team database has no admin yet, so the first admin is
//   created by the operator at the machine, recorded in the audit log under "cli:<RETERM_USER>" without any user row.
//   Once an admin who can sign in exists, `user add` too must act as a named admin.
import { getDb } from "../db/client.ts";
import { countAdminsWithPassword, findAccountByName, hasPasswordAccounts } from "../db/repositories/accounts/users.ts";
import { authMode, getEnv } from "../env.ts";
import { AppError } from "../errors.ts";
import { getLocalContext, inactiveAccount, type ServiceContext } from "./context.ts";

export async function getCliContext(opts: { bootstrap?: boolean } = {}): Promise<ServiceContext> {
  const db = getDb();
  const env = getEnv();
  const name = env.RETERM_USER;
  const account = await findAccountByName(db, name);
  if (account) {
    const { inactive, ...actor } = account;
    if (inactive) throw inactiveAccount(name, inactive);
    return { db, actor };
  }
  const team = authMode(env) === "team" || (await hasPasswordAccounts(db));
  if (opts.bootstrap && (!team || (await countAdminsWithPassword(db)) === 0)) {
    return { db, actor: { id: "", name: `cli:${name}`, role: "admin" } };
  }
  if (!team) return getLocalContext();
  throw new AppError(
    "UNAUTHENTICATED",
    `This database has accounts, and the CLI acts as RETERM_USER="${name}", which is not one of them. ` +
      `Set RETERM_USER to your account (e.g. RETERM_USER=alice npm run reterm -- …), or have an admin create it: ` +
      `RETERM_USER=<admin> npm run reterm -- user add ${name} --role admin`,
  );
}
