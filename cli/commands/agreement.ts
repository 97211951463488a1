// `reterm agreement --schema KEY [--queue NAME] [--json]`: Cohen's κ, Fleiss' κ and Krippendorff's α of one schema.
import { z } from "zod";
import { parseCommandArgs } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { computeAgreement } from "../../lib/services/annotation/compute-agreement.ts";

export const AGREEMENT_HELP = `agreement --schema KEY [--queue NAME] [--json]
                               inter-annotator agreement over targets ≥ 2 annotators labelled (null = does not apply)`;

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

export async function agreementCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    { schema: { type: "string" }, queue: { type: "string" }, json: { type: "boolean" } },
    z.object({
      schema: z.string({ message: "is required (a label schema key, e.g. error-category)" }).trim().min(1, "is required"),
      queue: z.string().trim().min(1).optional(),
      json: z.boolean().default(false),
    }),
  );
  const r = await computeAgreement(await getCliContext(), { schema: values.schema, queue: values.queue });
  if (values.json) {
    console.log(
      JSON.stringify({
        schema: r.schema,
        items: r.items,
        annotators: r.annotators,
        cohenKappa: r.cohenKappa,
        fleissKappa: r.fleissKappa,
        krippendorffAlpha: r.krippendorffAlpha,
      }),
    );
    return;
  }
  console.log(`${r.schema}: ${r.items} item(s) labelled by ≥ 2 of ${r.annotators} annotator(s)`);
  console.log(`  Cohen's κ           ${fmt(r.cohenKappa)}`);
  console.log(`  Fleiss' κ           ${fmt(r.fleissKappa)}`);
  console.log(`  Krippendorff's α    ${fmt(r.krippendorffAlpha)} (${r.level})`);
  console.log(`  disagreements       ${r.disagreements.length}`);
}
