// `reterm suggestions precision [--source S] [--schema KEY] [--json]`: the detector's precision per category against
// annotators' accept/change/reject decisions (the same figures as GET /api/v1/annotations/suggestions/precision).
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { getSuggestionPrecision } from "../../lib/services/annotation/suggestions/suggestion-precision.ts";
import type { PrecisionRow } from "../../lib/domain/annotation/suggestions.ts";

export const SUGGESTIONS_HELP = `suggestions precision [--source detector|imported:NAME] [--schema KEY] [--json]
                               precision per category of the detector's (or a source's) suggestions:
                               decided, accepted, changed, rejected, accepted/decided with a Wilson 95% interval`;

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);

function line(r: PrecisionRow): string {
  const ci = r.ci ? `[${pct(r.ci.lo)}, ${pct(r.ci.hi)}]` : "";
  return `  ${r.category.padEnd(22)} ${String(r.decided).padStart(7)} ${String(r.accepted).padStart(8)} ${String(r.changed).padStart(7)} ${String(r.rejected).padStart(8)}  ${pct(r.precision).padStart(6)} ${ci}`;
}

export async function suggestionsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== "precision") throw new UsageError("usage: suggestions precision [--source S] [--schema KEY] [--json]");
  const { values } = parseCommandArgs(
    rest,
    { source: { type: "string" }, schema: { type: "string" }, json: { type: "boolean" } },
    z.object({
      source: z.string().trim().min(1).optional(),
      schema: z.string().trim().min(1).optional(),
      json: z.boolean().default(false),
    }),
  );
  const r = await getSuggestionPrecision(await getCliContext(), {
    ...(values.source ? { source: values.source } : {}),
    ...(values.schema ? { schema: values.schema } : {}),
  });
  if (values.json) {
    console.log(JSON.stringify({ source: r.source, schema: r.schema, categories: r.categories, overall: r.overall }));
    return;
  }
  console.log(`Precision of ${r.source} suggestions (${r.schema}), from annotators' decisions:`);
  if (!r.categories.length) {
    console.log("  no decisions yet");
    return;
  }
  console.log(
    `  ${"category".padEnd(22)} ${"decided".padStart(7)} ${"accepted".padStart(8)} ${"changed".padStart(7)} ${"rejected".padStart(8)}  precision (95% CI)`,
  );
  for (const c of r.categories) console.log(line(c));
  console.log(line(r.overall));
}
