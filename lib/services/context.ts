// The acting user and database every service runs with. Pages, route handlers and the CLI build one and pass it in.
import { getDb, type Db } from "../db/client.ts";
import { ensureAccount, type AccountActor } from "../db/repositories/accounts/users.ts";
import { can, type Actor, type Permission } from "../domain/authz.ts";
import { getEnv } from "../env.ts";
import { AppError } from "../errors.ts";

export interface ServiceContext {
  db: Db;
  actor: Actor;
}

/** Throws FORBIDDEN unless the actor holds the permission. Every service calls this first. */
export function authorize(ctx: ServiceContext, permission: Permission): void {
  if (!can(ctx.actor, permission)) {
    throw new AppError("FORBIDDEN", `${ctx.actor.name} (${ctx.actor.role}) may not ${permission.replace(":", " ")}`);
  }
}

/**
 * Context for the local single-user mode: the user named by RETERM_USER, created as admin on first use (it is the
 * person at the machine). An admin may have disabled or deleted that account; then it may not act.
 */
export async function getLocalContext(): Promise<ServiceContext> {
  const db = getDb();
  const name = getEnv().RETERM_USER;
  // Every page and request asks for this: resolve the user once per process instead of an upsert (a write) each time.
  let byName = localActors.get(db);
  if (!byName) localActors.set(db, (byName = new Map()));
  let actor = byName.get(name);
  if (!actor) {
    actor = ensureAccount(db, name, "admin");
    byName.set(name, actor);
    actor.catch(() => byName.delete(name));
  }
  const { inactive, ...resolved } = await actor;
  if (inactive) throw inactiveAccount(resolved.name, inactive);
  return { db, actor: resolved };
}

export function inactiveAccount(name: string, state: "disabled" | "deleted"): AppError {
  return new AppError(
    "UNAUTHENTICATED",
    `The account "${name}" (RETERM_USER) is ${state}; an admin can ${state === "disabled" ? `enable it (npm run reterm -- user enable ${name})` : "create another"}, or set RETERM_USER to another account`,
  );
}

const localActors = new WeakMap<Db, Map<string, Promise<AccountActor>>>();
