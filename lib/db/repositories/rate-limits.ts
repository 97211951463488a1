// Rate limiters whose counts live in the database (the RateLimit table), so every server process on one database
// sees the same counts. rate-limiter-flexible's Prisma store works through the client's model API, so it runs
// unchanged on both providers and through the driver adapters; each increment is one upsert (INSERT … ON CONFLICT),
// so concurrent failures on several servers are all counted.
import { RateLimiterPrisma, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Db } from "../client.ts";

export type SharedLimiterOptions = { keyPrefix: string; points: number; duration: number };

const limiters = new WeakMap<Db, Map<string, RateLimiterAbstract>>();

/** A limiter over the RateLimit table of `db` (one per client and key prefix, created on first use). */
export function sharedRateLimiter(db: Db, opts: SharedLimiterOptions): RateLimiterAbstract {
  let byPrefix = limiters.get(db);
  if (!byPrefix) limiters.set(db, (byPrefix = new Map()));
  let limiter = byPrefix.get(opts.keyPrefix);
  if (!limiter) {
    // tableName is the client's model accessor; the store sweeps rows expired for an hour every five minutes (an
    // unref'd timer), so keys an attacker invents do not pile up.
    limiter = new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", ...opts });
    byPrefix.set(opts.keyPrefix, limiter);
  }
  return limiter;
}
