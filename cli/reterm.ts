// `npm run reterm -- <command>`: the command-line entry point. Each command parses its args with zod and calls lib/services.
import "./require-node.ts"; // first: stops with one line on an unsupported Node.js
import { z } from "zod";
import { isHelpFlag, parseCommandArgs, UsageError, wantsHelp } from "./args.ts";
import { getEnv, EnvError } from "../lib/env.ts";
import { closeDatabase, getMigrationStatus, setupDatabase } from "../lib/services/system/setup-database.ts";
import { getCliContext } from "../lib/services/cli-context.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { getStats } from "../lib/services/browse/get-stats.ts";
import { describeError } from "../lib/errors.ts";
import { ProgressLine } from "./progress.ts";
import { importCommand, IMPORT_HELP } from "./commands/import.ts";
import { generateCommand, GENERATE_HELP } from "./commands/generate.ts";
import { forksCommand, FORKS_HELP } from "./commands/forks.ts";
import { importsCommand, IMPORTS_HELP } from "./commands/imports.ts";
import { jobsCommand, JOBS_HELP } from "./commands/jobs.ts";
import { schemaCommand, SCHEMA_HELP } from "./commands/schema.ts";
import { tokenCommand, TOKEN_HELP } from "./commands/token.ts";
import { userCommand, USER_HELP } from "./commands/user.ts";
import { reindexCommand, reindexFailureModesCommand, REINDEX_HELP } from "./commands/reindex.ts";
import { labelsCommand, LABELS_HELP } from "./commands/labels.ts";
import { agreementCommand, AGREEMENT_HELP } from "./commands/agreement.ts";
import { queueCommand, QUEUE_HELP } from "./commands/queue.ts";
import { suggestionsCommand, SUGGESTIONS_HELP } from "./commands/suggestions.ts";
import { datasetCommand, DATASET_HELP } from "./commands/dataset.ts";
import { exportCommand, EXPORT_HELP } from "./commands/export.ts";
import { analyticsCommand, ANALYTICS_HELP } from "./commands/analytics.ts";

const MIGRATE_HELP = `migrate                      apply pending database migrations (idempotent)
  migrate status               list pending migrations`;
const SEED_DEMO_HELP = `seed-demo [--trajectories N] [--seed S] [--checkpoints 100,200,400]
                               load N generated demo trajectories (default 120; idempotent per seed);
                               --checkpoints evaluates the trained runs at several steps (training curves)`;
const STATS_HELP = `stats [--json]               counts of tasks, runs, trajectories, steps, fork points, annotations, datasets`;
const HELP_HELP = `help [COMMAND]               this text, or one command's (also: --help, -h, COMMAND --help)`;

// One entry per command, in the order the overview lists them; `COMMAND --help` prints its entry alone.
const COMMAND_HELP: Record<string, string> = {
  migrate: MIGRATE_HELP,
  "seed-demo": SEED_DEMO_HELP,
  stats: STATS_HELP,
  import: IMPORT_HELP,
  imports: IMPORTS_HELP,
  jobs: JOBS_HELP,
  forks: FORKS_HELP,
  generate: GENERATE_HELP,
  schema: SCHEMA_HELP,
  user: USER_HELP,
  token: TOKEN_HELP,
  "reindex-search": REINDEX_HELP,
  labels: LABELS_HELP,
  agreement: AGREEMENT_HELP,
  queue: QUEUE_HELP,
  suggestions: SUGGESTIONS_HELP,
  dataset: DATASET_HELP,
  export: EXPORT_HELP,
  analytics: ANALYTICS_HELP,
  help: HELP_HELP,
};

const USAGE = "ReTerm Studio CLI — npm run reterm -- <command> [options]";

const HELP = `${USAGE}

Commands:
${Object.values(COMMAND_HELP)
  .map((h) => `  ${h}`)
  .join("\n")}

Environment: DATABASE_URL (unset = data/reterm.db; file:/path.db; postgresql://...), HOST, RETERM_AUTH (see README).`;

function commandHelp(name: string | undefined): string | undefined {
  return name !== undefined && Object.hasOwn(COMMAND_HELP, name) ? `${USAGE}\n\n  ${COMMAND_HELP[name]}` : undefined;
}

/** The help text argv asks for, or undefined when it asks for a command to run. */
function helpText(name: string, rest: string[]): string | undefined {
  if (name === "help" || isHelpFlag(name)) return commandHelp(rest[0]) ?? HELP;
  return wantsHelp(rest) ? commandHelp(name) : undefined;
}

type Command = (argv: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  async migrate(argv) {
    const [sub] = argv;
    const config = getEnv().DATABASE_URL;
    if (sub === "status") {
      const s = await getMigrationStatus(config);
      for (const p of s.problems) console.log(`Problem: ${p}`);
      if (s.unknown.length) console.log(`Applied by a newer release (not in this one): ${s.unknown.join(", ")}`);
      if (s.pending.length) console.log(`Pending (${s.pending.length}): ${s.pending.join(", ")}`);
      else if (!s.problems.length) console.log("Database is up to date.");
      if (s.problems.length || s.pending.length) process.exitCode = 1;
      return;
    }
    if (sub) throw new UsageError(`unknown migrate subcommand "${sub}"`);
    const r = await setupDatabase(config);
    if (r.unknown.length) console.log(`Applied by a newer release (not in this one): ${r.unknown.join(", ")}`);
    console.log(r.applied.length ? `Applied ${r.applied.length} migration(s): ${r.applied.join(", ")}` : "Database is up to date.");
  },

  async "seed-demo"(argv) {
    const { values } = parseCommandArgs(
      argv,
      { trajectories: { type: "string" }, seed: { type: "string" }, checkpoints: { type: "string" } },
      z.object({
        trajectories: z.coerce.number().int().min(1).max(10_000_000).default(120),
        seed: z.coerce.number().int().min(0).default(42),
        checkpoints: z
          .string()
          .regex(/^\d{1,7}(,\d{1,7}){0,9}$/, "must be comma-separated training steps, e.g. 100,200,400")
          .transform((s) => s.split(",").map(Number))
          .optional(),
      }),
    );
    await setupDatabase(getEnv().DATABASE_URL);
    const ctx = await getCliContext();
    const progress = new ProgressLine(values.trajectories, "trajectories");
    const r = await seedDemo(ctx, {
      count: values.trajectories,
      seed: values.seed,
      checkpoints: values.checkpoints,
      onProgress: (p) => progress.update(p.imported + p.duplicates + p.failed),
    });
    progress.done();
    console.log(`Demo data: ${r?.imported ?? 0} imported, ${r?.duplicates ?? 0} already present, ${r?.failed ?? 0} failed.`);
    if (r?.failed) process.exitCode = 1;
  },

  async stats(argv) {
    const { values } = parseCommandArgs(argv, { json: { type: "boolean" } }, z.object({ json: z.boolean().default(false) }));
    const ctx = await getCliContext();
    const s = await getStats(ctx);
    if (values.json) console.log(JSON.stringify(s));
    else for (const [k, v] of Object.entries(s)) console.log(`${k.padEnd(14)} ${v.toLocaleString("en-US")}`);
  },

  import: importCommand,
  generate: generateCommand,
  imports: importsCommand,
  jobs: jobsCommand,
  forks: forksCommand,
  schema: schemaCommand,
  token: tokenCommand,
  user: userCommand,
  "reindex-search": reindexCommand,
  "reindex-failure-modes": reindexFailureModesCommand,
  labels: labelsCommand,
  agreement: agreementCommand,
  queue: queueCommand,
  suggestions: suggestionsCommand,
  dataset: datasetCommand,
  export: exportCommand,
  analytics: analyticsCommand,
};

// `reterm stats | head` closes the pipe early: that is not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

async function main() {
  const [name = "help", ...rest] = process.argv.slice(2);
  // Help needs neither a valid environment nor a database.
  const help = helpText(name, rest);
  if (help !== undefined) return void console.log(help);
  const command = commands[name];
  try {
    getEnv();
    if (!command) throw new UsageError(`unknown command "${name}"`);
    await command(rest);
  } catch (e) {
    if (e instanceof UsageError) console.error(`reterm: ${e.message}\n\n${HELP}`);
    else if (e instanceof EnvError) console.error(`reterm: ${e.message}`);
    else console.error(`reterm: ${describeError(e).message}`);
    process.exitCode = e instanceof UsageError ? 2 : 1;
  } finally {
    await closeDatabase();
  }
}

await main();
