// `reterm queue create|list|show`: annotation queues from scripts, through the same services as the UI.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { createQueue, getQueueOverview, listQueueSummaries } from "../../lib/services/annotation/manage-queues.ts";
import { computeQueueAgreement } from "../../lib/services/annotation/compute-agreement.ts";

export const QUEUE_HELP = `queue create NAME --filter QS --schema KEY[,KEY2] [--assignees a,b] [--labels-per-item N]
               [--blind|--open] [--reservation-minutes M]
                               a queue of the trajectories the table filter QS matches (no assignees: open to
                               everyone who may label); queue list [--json]; queue show NAME [--json] (progress, agreement)`;

const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

async function create(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      filter: { type: "string" },
      schema: { type: "string" },
      assignees: { type: "string" },
      "labels-per-item": { type: "string" },
      blind: { type: "boolean" },
      open: { type: "boolean" },
      "reservation-minutes": { type: "string" },
      json: { type: "boolean" },
    },
    z.object({
      filter: z.string({ message: "is required (the trajectories table's query string, e.g. outcome=failed)" }),
      schema: z.string({ message: "is required (a label schema key, e.g. error-category)" }).trim().min(1, "is required"),
      assignees: z.string().default(""),
      "labels-per-item": z.coerce.number().int().min(1).max(10).default(1),
      blind: z.boolean().optional(),
      open: z.boolean().optional(),
      "reservation-minutes": z.coerce.number().int().min(1).max(1440).optional(),
      json: z.boolean().default(false),
    }),
  );
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError("queue create: give the queue's NAME");
  if (extra.length) throw new UsageError(`queue create: unexpected ${extra.join(" ")}`);
  if (values.blind && values.open) throw new UsageError("--blind and --open exclude each other");
  const q = await createQueue(await getCliContext(), {
    name,
    filter: values.filter,
    schemas: list(values.schema),
    assignees: list(values.assignees),
    labelsPerItem: values["labels-per-item"],
    blind: !values.open,
    ...(values["reservation-minutes"] ? { reservationMinutes: values["reservation-minutes"] } : {}),
  });
  if (values.json) console.log(JSON.stringify(q));
  else
    console.log(
      `Queue "${q.name}" (${q.id}): ${q.itemCount} item(s) × ${q.labelsPerItem} · ${q.schemaKeys.join(", ")} · ${q.blind ? "blind" : "open"} · ${q.assignees.length ? q.assignees.map((a) => a.name).join(", ") : "open to every annotator"}`,
    );
}

async function listQueues(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { json: { type: "boolean" } }, z.object({ json: z.boolean().default(false) }));
  const rows = await listQueueSummaries(await getCliContext());
  if (values.json) return console.log(JSON.stringify(rows.map((r) => ({ ...r.queue, done: r.progress.done, places: r.progress.places }))));
  if (!rows.length) return console.log("No queues.");
  for (const { queue: q, progress: p } of rows)
    console.log(
      `${q.name.padEnd(30)} ${String(p.done).padStart(6)} / ${p.places} places done · ${q.schemaKeys.join(", ")} · ${q.assignees.map((a) => a.name).join(", ") || "everyone"}`,
    );
}

async function show(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: "boolean" } }, z.object({ json: z.boolean().default(false) }));
  const [name] = positionals;
  if (!name) throw new UsageError("queue show: give the queue's NAME");
  const ctx = await getCliContext();
  const o = await getQueueOverview(ctx, name);
  const agreement = await computeQueueAgreement(ctx, o.queue);
  if (values.json) {
    console.log(
      JSON.stringify({
        queue: o.queue,
        progress: o.progress,
        stepZeroLabels: o.stepZero.length,
        agreement: agreement.map((a) => ({
          schema: a.schema,
          items: a.items,
          annotators: a.annotators,
          cohenKappa: a.cohenKappa,
          fleissKappa: a.fleissKappa,
          krippendorffAlpha: a.krippendorffAlpha,
          disagreements: a.disagreements.length,
        })),
      }),
    );
    return;
  }
  const p = o.progress;
  console.log(
    `${o.queue.name}: ${o.queue.itemCount} item(s) × ${o.queue.labelsPerItem} · ${o.queue.schemaKeys.join(", ")} · ${o.queue.blind ? "blind" : "open"} · reservations expire after ${o.queue.reservationMinutes} min idle`,
  );
  console.log(`  progress   ${p.done} of ${p.places} places done · ${p.reserved} reserved · ${p.skipped} skipped`);
  for (const a of p.perAnnotator) console.log(`    ${a.name.padEnd(20)} done ${a.done} · reserved ${a.reserved} · skipped ${a.skipped}`);
  if (o.stepZero.length) console.log(`  to review  ${o.stepZero.length} label(s) stored on step 0 from this queue`);
  for (const a of agreement)
    console.log(
      `  ${a.schema}: ${a.items} item(s) by ≥ 2 annotators · Cohen's κ ${fmt(a.cohenKappa)} · Fleiss' κ ${fmt(a.fleissKappa)} · α ${fmt(a.krippendorffAlpha)} · ${a.disagreements.length} disagreement(s)`,
    );
}

export async function queueCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "create") return create(rest);
  if (sub === "list") return listQueues(rest);
  if (sub === "show") return show(rest);
  throw new UsageError(`queue: unknown subcommand "${sub ?? ""}" (create, list or show)`);
}
