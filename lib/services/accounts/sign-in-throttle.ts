// Brute-force brake for sign-in: failures are counted per account name and per client address; once either runs
// out, further attempts are refused until the window passes, whether or not the password would have been right.
// In-process counters (rate-limiter-flexible): the dashboard is one `next start` process.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export const SIGN_IN_LIMITS = {
  /** Failed attempts for one account name within the window. */
  perAccount: 5,
  /** Failed attempts from one address within the window (several people may share a NAT). */
  perAddress: 20,
  windowSeconds: 15 * 60,
};

const byAccount = new RateLimiterMemory({ keyPrefix: "acct", points: SIGN_IN_LIMITS.perAccount, duration: SIGN_IN_LIMITS.windowSeconds });
const byAddress = new RateLimiterMemory({ keyPrefix: "addr", points: SIGN_IN_LIMITS.perAddress, duration: SIGN_IN_LIMITS.windowSeconds });

/** Seconds until sign-in may be tried again for this account/address, or 0 when it may be tried now. */
export async function signInRetryAfter(account: string, address: string): Promise<number> {
  const [a, b] = await Promise.all([byAccount.get(account), byAddress.get(address)]);
  const wait = (r: RateLimiterRes | null, limit: number) => (r && r.consumedPoints >= limit ? Math.ceil(r.msBeforeNext / 1000) : 0);
  return Math.max(wait(a, SIGN_IN_LIMITS.perAccount), wait(b, SIGN_IN_LIMITS.perAddress));
}

export async function recordFailedSignIn(account: string, address: string): Promise<void> {
  // consume() rejects once the points are spent; the rejection is the signal we read through get(), not an error.
  await Promise.allSettled([byAccount.consume(account), byAddress.consume(address)]);
}

/** A success clears the account's count (not the address's: one good password must not unlock guessing others). */
export async function recordSuccessfulSignIn(account: string): Promise<void> {
  await byAccount.delete(account);
}
