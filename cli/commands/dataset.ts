// `reterm dataset …`: create a dataset from table-style filters (or label values), freeze it, list and show datasets,
// and mark tasks held out. Arguments are validated with zod; the work is done by lib/services/curation.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { createDataset, tableFilterFor } from "../../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../../lib/services/curation/freeze-dataset.ts";
import { storeFrozenExports } from "../../lib/services/curation/frozen-exports.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { ProgressLine } from "../progress.ts";
import { getDatasetDetail, listAllDatasets } from "../../lib/services/curation/view-datasets.ts";
import { deleteDataset } from "../../lib/services/curation/delete-dataset.ts";
import { listHeldOutTasks, markHeldOut, unmarkHeldOut } from "../../lib/services/curation/held-out.ts";
import type { DatasetRulesInput } from "../../lib/services/curation/rules.ts";
import { parseLabelConditionSpec } from "../../lib/domain/curation/label-rules.ts";

export const DATASET_HELP = `dataset create NAME [--outcome passed|failed] [--run R]… [--task T]… [--segments recovery]
                               [--label-rule [gold:|majority:|all:]SCHEMA=V1,V2|SCHEMA>=N[@TARGET]]… [--queue Q]
                               [--min-steps N] [--max-steps N] [--max-tokens N] [--min-reward X] [--dedupe]
                               [--dedupe-prefix] [--description TEXT]
                               build a dataset from the table's filters (all matching rows) or from label rules
                               (every --label-rule must hold; gold: adjudicated label, majority:/all: annotators
                               agree; --queue: only that queue's items; --label is the same as --label-rule)
  dataset freeze NAME [--override-held-out REASON] [--note TEXT]
                               freeze the current items as a new version (prints version and hash), then
                               store its exports in every format (later exports stream them)
  dataset store-exports NAME@VERSION [--replace]
                               store the exports of a version frozen before they were stored (or whose storing
                               was interrupted); --replace stores them again (an export reported damaged)
  dataset list | dataset show NAME
  dataset delete NAME          delete a dataset, its versions and its exported files
  dataset held-out add|remove TASK… [--reason TEXT] | dataset held-out list
                               TASK is benchmark/id, or a bare id for any benchmark`;

const num = z.coerce.number({ message: "must be a number" });
const createSchema = z.object({
  outcome: z.array(z.enum(["passed", "failed", "unknown"], { message: "must be passed, failed or unknown" })).default([]),
  run: z.array(z.string().min(1)).default([]),
  task: z.array(z.string().min(1)).default([]),
  segments: z.enum(["recovery"], { message: 'must be "recovery"' }).optional(),
  label: z.array(z.string()).default([]),
  "label-rule": z.array(z.string()).default([]),
  queue: z.string().min(1).optional(),
  "min-steps": num.int().nonnegative().optional(),
  "max-steps": num.int().positive().optional(),
  "max-tokens": num.int().positive().optional(),
  "min-reward": num.optional(),
  dedupe: z.boolean().default(false),
  "dedupe-prefix": z.boolean().default(false),
  description: z.string().max(2000).optional(),
});

function labelConditions(specs: string[]) {
  return specs.map((spec) => {
    try {
      return parseLabelConditionSpec(spec);
    } catch (e) {
      throw new UsageError(`--label-rule: ${(e as Error).message}`);
    }
  });
}

async function create(argv: string[]) {
  const { values: v, positionals } = parseCommandArgs(
    argv,
    {
      outcome: { type: "string", multiple: true },
      run: { type: "string", multiple: true },
      task: { type: "string", multiple: true },
      segments: { type: "string" },
      label: { type: "string", multiple: true },
      "label-rule": { type: "string", multiple: true },
      queue: { type: "string" },
      "min-steps": { type: "string" },
      "max-steps": { type: "string" },
      "max-tokens": { type: "string" },
      "min-reward": { type: "string" },
      dedupe: { type: "boolean" },
      "dedupe-prefix": { type: "boolean" },
      description: { type: "string" },
    },
    createSchema,
  );
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new UsageError("usage: dataset create NAME [options]");
  const conditions = labelConditions([...v.label, ...v["label-rule"]]);
  if (conditions.length && (v.outcome.length || v.run.length || v.task.length))
    throw new UsageError("--label-rule selects by labels; it cannot be combined with --outcome/--run/--task");
  if (v.queue && !conditions.length) throw new UsageError("--queue needs at least one --label-rule");
  const ctx = await getCliContext();
  const quality = {
    dedupeExact: v.dedupe,
    dedupePrefix: v["dedupe-prefix"],
    minSteps: v["min-steps"],
    maxSteps: v["max-steps"],
    maxTokens: v["max-tokens"],
    minReward: v["min-reward"],
  };
  const source: DatasetRulesInput = conditions.length
    ? { source: "labels", labels: conditions, ...(v.queue ? { queue: v.queue } : {}) }
    : { source: "filter", filter: await tableFilterFor(ctx, { outcome: v.outcome, runs: v.run, tasks: v.task }) };
  const { dataset, built } = await createDataset(ctx, {
    name,
    description: v.description,
    rules: { ...source, kind: v.segments ? "segment" : "trajectory", quality },
  });
  const dropped = Object.entries(built.rejected)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  console.log(
    `Dataset "${dataset.name}": ${built.items.length} ${v.segments ? "recovery segments" : "trajectories"} from ${built.matched} matching${dropped ? ` (dropped: ${dropped})` : ""}. Draft version ${dataset.latest?.version ?? 1}.`,
  );
}

async function freeze(argv: string[]) {
  const { values, positionals } = parseCommandArgs(
    argv,
    { "override-held-out": { type: "string" }, note: { type: "string" } },
    z.object({ "override-held-out": z.string().min(3, "must give a reason").optional(), note: z.string().max(500).optional() }),
  );
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError("usage: dataset freeze NAME");
  const override = values["override-held-out"] ? { reason: values["override-held-out"] } : undefined;
  const ctx = await getCliContext();
  const r = await freezeDataset(ctx, { name, note: values.note, override });
  console.log(`Froze "${name}" version ${r.version} (${r.itemCount} items), hash ${r.contentHash}`);
  await storeExports(ctx, name, r.version);
}

/** Store a frozen version's exports in every format, with a progress line per format on stderr. */
async function storeExports(ctx: ServiceContext, name: string, version: number, replace = false) {
  const started = Date.now();
  let progress: ProgressLine | null = null;
  let current = "";
  const stored = await storeFrozenExports(ctx, { name, version, replace }, (format, done, total) => {
    if (format !== current) {
      progress?.done();
      progress = new ProgressLine(total, `items (storing the ${format} export)`);
      current = format;
    }
    progress!.update(done);
  });
  (progress as ProgressLine | null)?.done();
  const now = stored.filter((s) => s.stored);
  const before = stored.filter((s) => !s.stored).map((s) => s.format);
  const mb = now.reduce((n, s) => n + s.bytes, 0) / 1e6;
  const what = now.length
    ? `Stored the ${now.map((s) => s.format).join(", ")} export${now.length > 1 ? "s" : ""} of version ${version} (${mb.toFixed(1)} MB uncompressed) in ${((Date.now() - started) / 1000).toFixed(1)} s`
    : `The exports of version ${version} were stored already`;
  console.log(
    `${what}${now.length && before.length ? `; already stored: ${before.join(", ")}` : ""}. Exports of this version now stream the stored bytes.`,
  );
}

async function storeExportsCommand(argv: string[]) {
  const { values, positionals } = parseCommandArgs(argv, { replace: { type: "boolean" } }, z.object({ replace: z.boolean().optional() }));
  const [spec, ...extra] = positionals;
  const m = /^([\w.-]+)@(\d+)$/.exec(spec ?? "");
  if (!m || extra.length) throw new UsageError("usage: dataset store-exports NAME@VERSION [--replace]");
  await storeExports(await getCliContext(), m[1]!, Number(m[2]), values.replace ?? false);
}

async function heldOut(argv: string[]) {
  const { values, positionals } = parseCommandArgs(
    argv,
    { reason: { type: "string" } },
    z.object({ reason: z.string().max(500).optional() }),
  );
  const [sub, ...tasks] = positionals;
  const ctx = await getCliContext();
  if (sub === "list") {
    for (const h of await listHeldOutTasks(ctx))
      console.log(`${h.benchmark === "*" ? "" : `${h.benchmark}/`}${h.externalId}${h.reason ? `\t${h.reason}` : ""}`);
    return;
  }
  if (sub === "add") return void console.log(`Marked ${await markHeldOut(ctx, { tasks, reason: values.reason })} task(s) held out.`);
  if (sub === "remove") return void console.log(`Released ${await unmarkHeldOut(ctx, { tasks })} task(s).`);
  throw new UsageError("usage: dataset held-out add|remove TASK… | dataset held-out list");
}

export async function datasetCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "create") return create(rest);
  if (sub === "freeze") return freeze(rest);
  if (sub === "store-exports") return storeExportsCommand(rest);
  if (sub === "held-out") return heldOut(rest);
  if (sub === "list") {
    for (const d of await listAllDatasets(await getCliContext())) {
      console.log(
        `${d.name}\t${d.latest?.itemCount ?? 0} items\t${d.itemKind}\t${d.frozenCount} frozen\t${d.latest?.frozenAt ? `v${d.latest.version} frozen` : "draft has changes"}`,
      );
    }
    return;
  }
  if (sub === "delete") {
    const [name, ...extra] = rest;
    if (!name || extra.length) throw new UsageError("usage: dataset delete NAME");
    const ctx = await getCliContext();
    const { dataset } = await getDatasetDetail(ctx, name);
    const r = await deleteDataset(ctx, { name, expectedRevision: dataset.revision });
    console.log(`Deleted dataset "${name}" and ${r.filesRemoved} export file(s).`);
    return;
  }
  if (sub === "show") {
    const [name] = rest;
    if (!name) throw new UsageError("usage: dataset show NAME");
    const d = await getDatasetDetail(await getCliContext(), name);
    console.log(JSON.stringify({ ...d.dataset, rules: d.rules, versions: d.versions }, null, 2));
    return;
  }
  throw new UsageError(`usage: ${DATASET_HELP}`);
}
