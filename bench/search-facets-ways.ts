// A search's facets read each way (MatchKeys) in turn, run after run, so that load and cache conditions fall on every
// way alike: bench/browser.ts measures its rows one after another, and a 10^6 database's pages move in and out of the
// OS cache between rows. Each answer is checked against the first way's.
// Usage: BENCH_OUT=/tmp/reterm-bench npx tsx bench/search-facets-ways.ts <database kind> <trajectories> '<query JSON>'…
//   e.g. … 1000000 1000000 '{"q":"ModuleNotFoundError"}'; … fixtures_x250 105250 '{"q":"that"}' [--runs=11]
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { getTrajectoryFacets } from "../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../lib/validation/search-params/index.ts";
import type { MatchKeys } from "../lib/db/repositories/browse/facets.ts";
import { benchConfig } from "./browser-setup.ts";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const [kind, n, ...queries] = args;
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 11);
const WAYS: MatchKeys[] = ["index", "index-one-statement", "index-per-statement"];

const db = createDb(benchConfig("postgresql", Number(n), kind));
const ctx = { db, actor: await ensureUser(db, "ann-a", "annotator") };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
for (const text of queries) {
  const query = trajectoryListQuerySchema.parse(JSON.parse(text));
  const times = WAYS.map(() => [] as number[]);
  let first: string | null = null;
  // Two warm-up rounds, then `runs` measured.
  for (let r = -2; r < runs; r++)
    for (const [k, way] of WAYS.entries()) {
      const t0 = performance.now();
      const answer = JSON.stringify(await getTrajectoryFacets(ctx, query, way));
      const ms = performance.now() - t0;
      // Past the 4 s budget the facets are not counted (null): reported, not compared.
      if (answer === "null") console.log(`${text} ${way}: not counted (past the budget) in round ${r}`);
      else if (first === null) first = answer;
      else if (answer !== first) throw new Error(`${text}: ${way} answered differently from ${WAYS[0]}`);
      if (r >= 0) times[k]!.push(ms);
    }
  const cells = WAYS.map((way, k) => `${way} ${pct(times[k]!, 50).toFixed(1)} / ${pct(times[k]!, 95).toFixed(1)}`);
  console.log(`${text}: ${cells.join("; ")} (p50 / p95 ms, ${runs} runs)`);
}
await db.$disconnect();
