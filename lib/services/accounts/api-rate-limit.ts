// Requests a minute per API token (RETERM_API_RATE_LIMIT), so one runaway pipeline cannot starve the dashboard. On
// PostgreSQL the counts live in the database (lib/db/repositories/rate-limits.ts), so a token gets the limit once
// across every web replica, not once per replica. On SQLite — one machine by definition — they live in this process:
// a counted write per API call would take SQLite's one write lock, which a running import holds for long stretches.
// Browser sessions are not limited here: the dashboard's own calls follow a person's clicks.
import { RateLimiterMemory, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/client.ts";
import { dialectOf } from "../../db/dialect.ts";
import { sharedRateLimiter } from "../../db/repositories/rate-limits.ts";
import { getEnv } from "../../env.ts";
import { AppError } from "../../errors.ts";

const WINDOW_SECONDS = 60;
const inProcess = new Map<number, RateLimiterAbstract>();

function limiter(db: Db, points: number): RateLimiterAbstract {
  if (dialectOf(db) === "postgresql") return sharedRateLimiter(db, { keyPrefix: `api:${points}`, points, duration: WINDOW_SECONDS });
  let l = inProcess.get(points);
  if (!l) inProcess.set(points, (l = new RateLimiterMemory({ keyPrefix: "api", points, duration: WINDOW_SECONDS })));
  return l;
}

/**
 * Count one request of the token with this hash; RATE_LIMITED (429, with the seconds to wait in details.retryAfter)
 * once it has sent RETERM_API_RATE_LIMIT requests within the minute.
 */
export async function takeApiRequest(db: Db, tokenHash: string): Promise<void> {
  const points = getEnv().RETERM_API_RATE_LIMIT;
  if (points === 0) return;
  try {
    await limiter(db, points).consume(tokenHash);
  } catch (e) {
    // consume() rejects with a RateLimiterRes once the points are spent; an Error is the store failing.
    if (e instanceof Error) throw e;
    const retryAfter = Math.max(1, Math.ceil((e as RateLimiterRes).msBeforeNext / 1000));
    throw new AppError(
      "RATE_LIMITED",
      `This API token has sent ${points} requests in the last minute (RETERM_API_RATE_LIMIT); retry in ${retryAfter} s`,
      { retryAfter },
    );
  }
}
