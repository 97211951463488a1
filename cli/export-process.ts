// An export run from the command line is a short process, and on a small machine it shares the cores with nothing
// but itself. Prisma's query compiler is WebAssembly; for a few seconds after the first query V8 recompiles it with
// its optimizing tier on background threads. A long-lived server gains from that; an export of a few seconds loses:
// those threads take the cores that zlib (inflating a stored export) and the file writes run on. Measured on the
// 2-core box, a stored 64 MB labels export took 0.86 s with it and 0.55 s without (bench/export.ts, docs/benchmarks.md).
// With Liftoff (V8's baseline WebAssembly compiler) only, the export's few queries compile a little slower.
import v8 from "node:v8";

let tuned = false;

/** Call before the first database query of the process (V8 reads the flag when Prisma's WebAssembly is compiled). */
export function tuneForShortExport(): void {
  if (tuned) return;
  tuned = true;
  v8.setFlagsFromString("--liftoff-only");
}
