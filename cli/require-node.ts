// Imported first by the entry points (cli/start.ts, cli/reterm.ts): on an unsupported Node.js, stop with one line
// before anything else loads.
import { nodeVersionProblem } from "./node-version.ts";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
