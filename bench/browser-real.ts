// The trajectory browser on data shaped like users': the shared fixtures (../shared/fixtures: real third-party
// trajectories in every format, with their real step counts, outputs and words) written K times under their own ids
// and imported into PostgreSQL, against as many generated trajectories in a database built the same way, measured
// in the same run, alternating. The two hold different words, so each database's searches are picked from its own
// word statistics by the same rule: a word held by about 1 % of the trajectories, the most common word, and the
// two-word phrase seen most often in a sample of its steps.
// Usage: BENCH_OUT=/tmp/reterm-bench npx tsx bench/browser-real.ts [--copies=250] [--runs=5]
// The databases (reterm_bench_browser_fixtures_x<K> and reterm_bench_browser_<N>) are built on first use and kept.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { z } from "zod";
import type { Db } from "../lib/db/client.ts";
import type { ServiceContext } from "../lib/services/context.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { getTrajectoryFacets, listTrajectories } from "../lib/services/browse/browse-trajectories.ts";
import { importTrajectories } from "../lib/services/import/import-trajectories.ts";
import { nativeImporter } from "../lib/importers/native.ts";
import { fileSource } from "../lib/importers/source.ts";
import { NO_ERROR, trajectoryListQuerySchema } from "../lib/validation/search-params/index.ts";
import { benchConfig, OUT_DIR, prepareBenchDatabase, type Fill } from "./browser-setup.ts";
import { FIXTURES_DIR, writeFixtureCopies } from "./fixture-copies.ts";

const copies = Number(process.argv.find((a) => a.startsWith("--copies="))?.slice(9) ?? 250);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 5);
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);

if (!fs.existsSync(FIXTURES_DIR)) {
  console.log(`the shared fixtures (${FIXTURES_DIR}) are absent: they sit beside the checkout. Nothing to measure`);
  process.exit(0);
}

const file = path.join(OUT_DIR, `fixtures-x${copies}.jsonl`);
fs.mkdirSync(OUT_DIR, { recursive: true });
if (!fs.existsSync(file)) await writeFixtureCopies(file, copies);
let n = 0;
for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) if (line) n++;

const fixtures: Fill = async (ctx) => {
  const r = await importTrajectories(ctx, nativeImporter.read(await fileSource(file), {}), {
    origin: "cli",
    threaded: true,
    indexSearch: false,
  });
  if (r.imported !== n) throw new Error(`fixtures × ${copies}: imported ${r.imported} of ${n}: ${JSON.stringify(r.errors.slice(0, 3))}`);
  return r;
};

const real = await prepareBenchDatabase(benchConfig("postgresql", n, `fixtures_x${copies}`), n, {
  fill: fixtures,
  what: `shared-fixture (× ${copies})`,
});
const generated = await prepareBenchDatabase(benchConfig("postgresql", n), n);

const wordStats = z.array(z.object({ word: z.string(), ndoc: z.coerce.number() }));
const WORD = /^[a-z][a-z_]{3,}$/;

/** The searches picked from a database's own words: ~1 % of trajectories, the most common, the commonest phrase. */
async function searchesOf(db: Db): Promise<{ rare: string; common: string; phrase: string }> {
  // Exact per-trajectory frequencies: every doc's word set read once (seconds at 10^5).
  const words = wordStats
    .parse(await db.$queryRawUnsafe(`SELECT word, ndoc FROM ts_stat('SELECT "words" FROM "step_search_doc"')`))
    .filter((w) => WORD.test(w.word));
  const nearest = (target: number) => words.reduce((a, b) => (Math.abs(b.ndoc - target) < Math.abs(a.ndoc - target) ? b : a));
  const rare = nearest(n / 100).word;
  const common = words.reduce((a, b) => (b.ndoc > a.ndoc ? b : a)).word;
  // Adjacent words in a sample of step rows (positions from their tsvectors).
  const rows = z
    .array(z.object({ rid: z.coerce.string(), lexeme: z.string(), positions: z.array(z.coerce.number()) }))
    .parse(
      await db.$queryRawUnsafe(
        `SELECT s."rid", u."lexeme", u."positions" FROM (SELECT "rid", "tsv" FROM "step_search" TABLESAMPLE SYSTEM (2) REPEATABLE (1) LIMIT 20000) s, unnest(s."tsv") u`,
      ),
    );
  const at = new Map<string, string>();
  for (const r of rows) for (const p of r.positions) at.set(`${r.rid}:${p}`, r.lexeme);
  const pairs = new Map<string, number>();
  for (const [key, first] of at) {
    const [rid, p] = key.split(":");
    const second = at.get(`${rid}:${Number(p) + 1}`);
    if (second && second !== first && WORD.test(first) && WORD.test(second)) {
      const phrase = `"${first} ${second}"`;
      pairs.set(phrase, (pairs.get(phrase) ?? 0) + 1);
    }
  }
  const phrase = [...pairs].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return { rare, common, phrase };
}

interface Side {
  label: string;
  ctx: ServiceContext;
  cases: { name: string; run: () => Promise<unknown> }[];
}

async function side(label: string, db: Db): Promise<Side> {
  const ctx: ServiceContext = { db, actor: await ensureUser(db, "ann-a", "annotator") };
  const s = await searchesOf(db);
  const matches = async (text: string) =>
    ((await getTrajectoryFacets(ctx, q({ q: text })))?.outcome ?? []).reduce((a, o) => a + o.count, 0);
  console.log(
    `${label}: rare ${s.rare} (${await matches(s.rare)} trajectories), common ${s.common} (${await matches(s.common)}), phrase ${s.phrase} (${await matches(s.phrase)})`,
  );
  // The analytics drill-down: the commonest fork-point category (NO_ERROR, fork points without one, when none has one).
  const fork = (await getTrajectoryFacets(ctx, q({})))?.forkError.find((o) => o.count > 0 && o.value !== NO_ERROR);
  console.log(`${label}: forkError ${fork ? `${fork.value} (${fork.count} attempts)` : `${NO_ERROR} (no fork point has a category)`}`);
  const forkError = fork?.value ?? NO_ERROR;
  const page = (input: Record<string, unknown>) => () => listTrajectories(ctx, q(input));
  const facets = (input: Record<string, unknown>, matchKeys?: Parameters<typeof getTrajectoryFacets>[2]) => () =>
    getTrajectoryFacets(ctx, q(input), matchKeys);
  return {
    label,
    ctx,
    cases: [
      { name: "first page", run: page({}) },
      { name: "facets, no filter", run: facets({}) },
      { name: "facets, outcome=failed", run: facets({ outcome: "failed" }) },
      { name: "search page, rare word", run: page({ q: s.rare }) },
      { name: "search facets, rare word", run: facets({ q: s.rare }) },
      { name: "search page, common word", run: page({ q: s.common }) },
      { name: "search facets, common word", run: facets({ q: s.common }) },
      { name: "search page, phrase", run: page({ q: s.phrase }) },
      { name: "search facets, phrase", run: facets({ q: s.phrase }) },
      // A search's facets read in one statement, as before the marks' facets had a statement of their own.
      { name: "search facets, rare word (one statement)", run: facets({ q: s.rare }, "index-one-statement") },
      { name: "search facets, common word (one statement)", run: facets({ q: s.common }, "index-one-statement") },
      { name: "search facets, phrase (one statement)", run: facets({ q: s.phrase }, "index-one-statement") },
      // A search's facets with its matches read again by each facet's statement, as before they were read once.
      { name: "search facets, rare word (per statement)", run: facets({ q: s.rare }, "index-per-statement") },
      { name: "search facets, common word (per statement)", run: facets({ q: s.common }, "index-per-statement") },
      { name: "search facets, phrase (per statement)", run: facets({ q: s.phrase }, "index-per-statement") },
      { name: "page, forkError", run: page({ forkError }) },
      { name: "facets, forkError", run: facets({ forkError }) },
    ],
  };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

console.log(`bench/browser-real.ts — ${n.toLocaleString("en-US")} trajectories each, ${os.cpus().length} cores, load ${load()}`);
const sides = [await side(`shared fixtures × ${copies}`, real), await side("generated", generated)];
console.log(`${"query".padEnd(28)} ${"fixtures p50 / p95".padStart(20)} ${"generated p50 / p95".padStart(20)}  ratio p50`);
for (let i = 0; i < sides[0]!.cases.length; i++) {
  const times = sides.map(() => [] as number[]);
  // Warm both, then alternate, so load and cache conditions fall on both alike.
  for (const s of sides) for (let w = 0; w < 2; w++) await s.cases[i]!.run();
  for (let r = 0; r < runs; r++)
    for (const [k, s] of sides.entries()) {
      const t0 = performance.now();
      await s.cases[i]!.run();
      times[k]!.push(performance.now() - t0);
    }
  const cell = (xs: number[]) => `${pct(xs, 50).toFixed(1)} / ${pct(xs, 95).toFixed(1)}`.padStart(20);
  console.log(
    `${sides[0]!.cases[i]!.name.padEnd(28)} ${cell(times[0]!)} ${cell(times[1]!)}  ${(pct(times[0]!, 50) / pct(times[1]!, 50)).toFixed(2)}×`,
  );
}
console.log(`load at end ${load()}. Times in ms (app: service → repository → Prisma); ratio = fixtures / generated.`);
await Promise.all([real.$disconnect(), generated.$disconnect()]);
