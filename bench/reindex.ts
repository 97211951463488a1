// The full search-index rebuild (reindexSearch, as `reterm reindex-search` and the bench's builds run it) with one
// lane against several, on the same database in the same run, alternating which goes first. Each rebuild includes
// its GIN index builds (PostgreSQL), which no lane count changes. Node's own CPU time is reported beside the wall
// time: the rest of the work is the database server's.
// Usage: BENCH_OUT=/tmp/reterm-bench npx tsx bench/reindex.ts [trajectories=100000] [--lanes=1,2] [--runs=2] [--sqlite]
import os from "node:os";
import { reindexSearch } from "../lib/db/repositories/search/index.ts";
import { benchConfig, prepareBenchDatabase } from "./browser-setup.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100_000);
const lanes = (arg("lanes") ?? "1,2").split(",").map(Number);
const runs = Number(arg("runs") ?? 2);
const provider = process.argv.includes("--sqlite") ? "sqlite" : "postgresql";

const db = await prepareBenchDatabase(benchConfig(provider, n), n);
const times = new Map<number, { wall: number; cpu: number }[]>(lanes.map((l) => [l, []]));
for (let run = 0; run < runs; run++) {
  // Alternate the order, so neither lane count always runs on the cache the other warmed.
  for (const l of run % 2 ? [...lanes].reverse() : lanes) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { trajectories } = await reindexSearch(db, { lanes: l });
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (trajectories !== n) throw new Error(`indexed ${trajectories} of ${n}`);
    times.get(l)!.push({ wall, cpu: (cpu.user + cpu.system) / 1e6 });
    console.log(`run ${run + 1}, ${l} lane(s): ${wall.toFixed(1)} s wall, Node ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`);
  }
}
if (provider === "postgresql") await db.$executeRawUnsafe("VACUUM ANALYZE");
await db.$disconnect();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const base = median(times.get(lanes[0]!)!.map((t) => t.wall));
console.log(
  `\n${provider}, ${n.toLocaleString("en-US")} trajectories, ${runs} run(s) each, ${os.availableParallelism()} cores, load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const [l, ts] of times) {
  const wall = median(ts.map((t) => t.wall));
  console.log(
    `  ${String(l).padStart(2)} lane(s): median ${wall.toFixed(1)} s (${(n / wall).toFixed(0)} trajectories/s), Node CPU ${median(ts.map((t) => t.cpu)).toFixed(1)} s, ${(wall / base).toFixed(2)}× of ${lanes[0]} lane(s)`,
  );
}
