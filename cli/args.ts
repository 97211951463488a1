import { parseArgs, type ParseArgsConfig } from "node:util";
import { z } from "zod";

export class UsageError extends Error {}

export function isHelpFlag(arg: string): boolean {
  return arg === "--help" || arg === "-h";
}

/** Whether argv asks for help: `--help` or `-h` anywhere before a `--` that ends the options. */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some(isHelpFlag);
}

/** Parse argv with node:util, then validate with zod, so every CLI input is checked in one place. */
export function parseCommandArgs<S extends z.ZodType>(
  argv: string[],
  options: ParseArgsConfig["options"],
  schema: S,
): { values: z.infer<S>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const result = schema.safeParse(parsed.values);
  if (!result.success) {
    throw new UsageError(result.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; "));
  }
  return { values: result.data, positionals: parsed.positionals };
}
