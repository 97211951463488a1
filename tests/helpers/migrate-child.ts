// A second process running the start-up migration runner (concurrency tests): prints "ready" once loaded, waits
// for the go file so both processes start together, then prints the runner's result (or error) as JSON.
//   node --import tsx tests/helpers/migrate-child.ts '<DatabaseConfig JSON>' <migrations dir> <go file>
import fs from "node:fs";
import { migrateDeploy } from "../../lib/db/migrations/index.ts";

const [configJson, dir, goFile] = process.argv.slice(2) as [string, string, string];
console.log("ready");
while (!fs.existsSync(goFile)) await new Promise((r) => setTimeout(r, 5));
try {
  console.log(JSON.stringify({ ok: true, ...(await migrateDeploy(JSON.parse(configJson), { dir })) }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: (e as Error).message }));
}
