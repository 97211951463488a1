import { createDb } from "../../lib/db/client.ts";
import { ensureUser } from "../../lib/db/repositories/users.ts";
import { openExport, writeExportFiles } from "../../lib/services/curation/export-dataset.ts";
import { findDatasetByName } from "../../lib/db/repositories/datasets/datasets.ts";
const db = createDb({ provider: "sqlite", file: "/tmp/s8-10/export-100000.db", url: "file:/tmp/s8-10/export-100000.db" });
const ctx = { db, actor: await ensureUser(db, "bench", "admin") };
for (let i = 0; i < 2; i++) {
let t = performance.now();
const d = await findDatasetByName(db, "bench-all");
console.log(`findDataset ${(performance.now() - t).toFixed(0)} ms, manifest ${d!.latest!.manifest?.length} chars`);
t = performance.now();
const o = await openExport(ctx, { name: "bench-all", format: "labels-jsonl" });
const t1 = performance.now();
await writeExportFiles(o, "/tmp/s8-10/lj.out");
console.log(`openExport ${(t1 - t).toFixed(0)} ms, write+card ${(performance.now() - t1).toFixed(0)} ms`);
}
