// Brute-force brake for sign-in. Failures are counted per account name (from every address) and per account name
// and address together — each attempt is counted as it starts and a success clears the counts, so what remains are
// the failures; once either runs out, that account is refused from there until the window passes, whether
// or not the password would have been right. Nothing is counted per address alone: many people may share one NAT or
// proxy, and one guesser there must not lock everyone else out of their own accounts.
// Counts live in the database (lib/db/repositories/rate-limits.ts), so every server on it sees the same ones.
import type { RateLimiterRes } from "rate-limiter-flexible";
import { getDb, type Db } from "../../db/client.ts";
import { sharedRateLimiter } from "../../db/repositories/rate-limits.ts";

export const SIGN_IN_LIMITS = {
  /** Failed attempts for one account name from one address within the window. */
  perAccountAndAddress: 5,
  /** Failed attempts for one account name from all addresses together within the window. */
  perAccount: 20,
  windowSeconds: 15 * 60,
};

function limiters(db: Db) {
  const duration = SIGN_IN_LIMITS.windowSeconds;
  return {
    account: sharedRateLimiter(db, { keyPrefix: "sign-in:account", points: SIGN_IN_LIMITS.perAccount, duration }),
    pair: sharedRateLimiter(db, { keyPrefix: "sign-in:account-address", points: SIGN_IN_LIMITS.perAccountAndAddress, duration }),
  };
}

/** Account names are lower-cased before they get here; the separator cannot occur in an IP address. */
const pairKey = (account: string, address: string) => `${address} ${account}`;

/** Seconds until sign-in to this account may be tried again from this address, or 0 when it may be tried now. */
export async function signInRetryAfter(account: string, address: string, db: Db = getDb()): Promise<number> {
  const l = limiters(db);
  const [a, p] = await Promise.all([l.account.get(account), l.pair.get(pairKey(account, address))]);
  const wait = (r: RateLimiterRes | null, limit: number) => (r && r.consumedPoints >= limit ? Math.ceil(r.msBeforeNext / 1000) : 0);
  return Math.max(wait(a, SIGN_IN_LIMITS.perAccount), wait(p, SIGN_IN_LIMITS.perAccountAndAddress));
}

/**
 * Count this attempt before the password is checked — as a failure until a success clears it — so that attempts
 * sent all at once cannot each pass the check above before any of them is counted. Returns the seconds to wait when
 * this attempt is over a limit (refuse it unchecked), else 0.
 */
export async function takeSignInAttempt(account: string, address: string, db: Db = getDb()): Promise<number> {
  const l = limiters(db);
  const results = await Promise.allSettled([l.account.consume(account), l.pair.consume(pairKey(account, address))]);
  let wait = 0;
  for (const r of results) {
    if (r.status === "fulfilled") continue;
    // consume() rejects with a RateLimiterRes once the points are spent; a rejection with an Error is the database
    // failing, and must not pass for a counted attempt.
    if (r.reason instanceof Error) throw r.reason;
    wait = Math.max(wait, Math.ceil((r.reason as RateLimiterRes).msBeforeNext / 1000));
  }
  return wait;
}

/**
 * A success clears the account's counts from this address and from everywhere: the owner is back, and the guesses
 * so far bought nothing.
 */
export async function recordSuccessfulSignIn(account: string, address: string, db: Db = getDb()): Promise<void> {
  const l = limiters(db);
  await Promise.all([l.account.delete(account), l.pair.delete(pairKey(account, address))]);
}
