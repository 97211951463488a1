// Which SQL dialect a client speaks, for the repositories whose raw SQL differs per provider.
import { z } from "zod";
import type { Prisma } from "./generated/sqlite/client.ts";
import type { Db } from "./client.ts";

export type Queryable = Db | Prisma.TransactionClient;
export type Dialect = "sqlite" | "postgresql";

const dialectSchema = z.enum(["sqlite", "postgresql"]);
/** Which SQL dialect a client (or transaction client) speaks. */
export function dialectOf(db: Queryable): Dialect {
  return dialectSchema.parse(Reflect.get(db, "_activeProvider"));
}
