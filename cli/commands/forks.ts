// `reterm forks undo <importJobId>`: remove the fork links inferred for one import.
import { UsageError } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { undoInferredForks } from "../../lib/services/import/infer-forks.ts";

export const FORKS_HELP = `forks undo <importJobId>     remove the fork links that import inferred (explicit links stay)`;

export async function forksCommand(argv: string[]): Promise<void> {
  const [sub, jobId] = argv;
  if (sub !== "undo" || !jobId) throw new UsageError("usage: forks undo <importJobId>");
  const n = await undoInferredForks(await getCliContext(), jobId);
  console.log(n ? `Removed ${n} inferred fork link(s).` : "That import has no inferred fork links.");
}
