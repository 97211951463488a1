// The context a background job runs with: the account that started it, read again when the job runs, so a job
// started by someone disabled or demoted since does only what that account may do now. Jobs nobody started (the
// retention sweep) run as the system.
import type { Db } from "../db/client.ts";
import { findAccountById } from "../db/repositories/accounts/users.ts";
import { AppError } from "../errors.ts";
import type { ServiceContext } from "./context.ts";

export async function getJobContext(db: Db, createdById: string | null): Promise<ServiceContext> {
  if (!createdById) return { db, actor: { id: "", name: "system", role: "admin" } };
  const account = await findAccountById(db, createdById);
  if (!account) throw new AppError("FORBIDDEN", "the account that started this job no longer exists");
  const { inactive, ...actor } = account;
  if (inactive) throw new AppError("FORBIDDEN", `the account that started this job (${actor.name}) is ${inactive}`);
  return { db, actor };
}
