// `reterm generate`: write generated trajectories as native JSONL (demo/scale data for imports and benchmarks).
import fs from "node:fs";
import zlib from "node:zlib";
import { once } from "node:events";
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

export const GENERATE_HELP = `generate --out FILE [--trajectories N] [--seed S] [--no-fork-links]
                               write N generated trajectories as native JSONL (.gz compresses)`;

export async function generateCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    { out: { type: "string" }, trajectories: { type: "string" }, seed: { type: "string" }, "no-fork-links": { type: "boolean" } },
    z.object({
      out: z.string().min(1).optional(),
      trajectories: z.coerce.number().int().min(1).max(100_000_000).default(1000),
      seed: z.coerce.number().int().min(0).default(42),
      "no-fork-links": z.boolean().default(false),
    }),
  );
  if (!values.out) throw new UsageError("generate needs --out FILE");
  const file = fs.createWriteStream(values.out);
  const out: NodeJS.WritableStream = values.out.endsWith(".gz")
    ? (() => {
        const gz = zlib.createGzip();
        gz.pipe(file);
        return gz;
      })()
    : file;
  let n = 0;
  for (const t of generateTrajectories({ count: values.trajectories, seed: values.seed })) {
    // Without explicit links the recovery structure must be inferred at import (shared prefixes).
    if (values["no-fork-links"]) delete t.fork;
    if (!out.write(`${JSON.stringify(t)}\n`)) await once(out, "drain");
    n++;
  }
  out.end();
  await once(file, "finish");
  console.log(`Wrote ${n} trajectories to ${values.out} (${(fs.statSync(values.out).size / 1024 / 1024).toFixed(1)} MB)`);
}
