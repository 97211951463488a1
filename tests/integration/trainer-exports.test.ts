// Every chat format, every row of a real mixed dataset (generated trajectories with terminal recordings plus the
// shared fixtures that import with tool calls: ATIF, OpenAI chat, SWE-agent, OpenHands, Inspect, and asciicast
// recordings),
// checked against rules written from each trainer's docs (tests/helpers/trainer-rules, not from our writers):
// declared tools, argument types, alternation, a trailing assistant turn, loss masks, no escape bytes. On both
// databases.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { fixture, hasSharedFixtures } from "../helpers/shared-fixtures.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { importFiles } from "../../lib/services/import/import-files.ts";
import { createDataset } from "../../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../../lib/services/curation/freeze-dataset.ts";
import { storeFrozenExports } from "../../lib/services/curation/frozen-exports.ts";
import { openExport, writeExportFiles, type ExportInput } from "../../lib/services/curation/export-dataset.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { markHeldOut, unmarkHeldOut } from "../../lib/services/curation/held-out.ts";
import { listVersionLeaks } from "../../lib/services/curation/leakage-guard.ts";
import { getDatasetDetail } from "../../lib/services/curation/view-datasets.ts";
import { checkOpenAiLine, type MaskFacts } from "../helpers/trainer-rules/openai.ts";
import { checkTrlLine } from "../helpers/trainer-rules/trl.ts";
import { checkDatasetInfo, checkShareGptLine } from "../helpers/trainer-rules/llama-factory.ts";
import { checkAxolotlLine } from "../helpers/trainer-rules/axolotl.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-trainer-exports-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CHECKS = { openai: checkOpenAiLine, trl: checkTrlLine, sharegpt: checkShareGptLine, axolotl: checkAxolotlLine } as const;
type ChatFormat = keyof typeof CHECKS;
const SHARED = ["atif", "sft-openai-jsonl", "sweagent-traj", "openhands-events", "inspect-eval", "asciicast"];

interface Written {
  lines: string[];
  provenance: { trajectoryId: string; kind: string; parentTrajectoryId: string | null; forkStep: number | null }[];
  card: string;
  dir: string;
  dataFile: string;
}

async function write(ctx: ServiceContext, input: ExportInput, tag: string): Promise<Written> {
  const dir = fs.mkdtempSync(path.join(tmp, `${tag}-`));
  const opened = await openExport(ctx, input);
  const out = path.join(dir, opened.filename);
  const { sidecarPaths } = await writeExportFiles(opened, out);
  const lines = fs.readFileSync(out, "utf8").split("\n").filter(Boolean);
  if (process.env.DUMP_EXPORTS) fs.cpSync(dir, path.join(process.env.DUMP_EXPORTS, path.basename(dir)), { recursive: true });
  const prov = sidecarPaths.find((p) => p.endsWith(".provenance.jsonl"))!;
  const provenance = fs
    .readFileSync(prov, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Written["provenance"][number]);
  return { lines, provenance, card: fs.readFileSync(path.join(dir, "README.md"), "utf8"), dir, dataFile: path.basename(out) };
}

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`trainer exports (${p.title})`, () => {
    let t: TestDatabase;
    /** Per trajectory id: how many agent steps a segment's context and recovery hold (from the database, not a writer). */
    const facts = new Map<string, MaskFacts>();

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      const generated = [...generateTrajectories({ count: 40, seed: 7, recordingRate: 0.5 })];
      const r = await importTrajectories(
        t.ctx,
        generated.map((g, i) => normalized(g, "native", "gen.jsonl", i + 1)),
        { origin: "cli", indexSearch: false },
      );
      expect(r.imported).toBe(generated.length);
      if (hasSharedFixtures)
        await importFiles(
          t.ctx,
          SHARED.map((d) => fixture(d)),
          { origin: "cli" },
        );
      await createDataset(t.ctx, { name: "mixed", rules: { source: "filter", filter: "" } });
      await createDataset(t.ctx, { name: "segments", rules: { source: "filter", filter: "", kind: "segment" } });
      const attempts = await t.db.trajectory.findMany({
        where: { parentId: { not: null } },
        select: { id: true, parentId: true, forkStepIndex: true },
      });
      for (const a of attempts) {
        const ctxSteps = await t.db.step.count({
          where: { trajectoryId: a.parentId!, index: { lte: a.forkStepIndex ?? -1 }, source: "agent" },
        });
        const own = await t.db.step.count({ where: { trajectoryId: a.id, source: "agent", isCopiedContext: false } });
        facts.set(a.id, { contextAgentSteps: ctxSteps, recoveryAgentSteps: own });
      }
    }, 300_000);
    afterAll(async () => {
      await t?.drop();
    });

    it("holds the shared fixtures' tool-calling formats beside generated data", async () => {
      const sources = await t.db.run.findMany({ select: { source: true }, distinct: ["source"] });
      const have = new Set(sources.map((s) => s.source));
      if (hasSharedFixtures) for (const f of ["openai-chat", "swe-agent", "openhands"]) expect(have).toContain(f);
      expect(facts.size).toBeGreaterThan(0);
    });

    for (const format of Object.keys(CHECKS) as ChatFormat[]) {
      it(`${format}: every row of a mixed dataset and of its recovery segments loads by the trainer's rules`, async () => {
        for (const name of ["mixed", "segments"]) {
          const w = await write(t.ctx, { name, format }, `${format}-${name}`);
          expect(w.lines.length).toBeGreaterThan(0);
          // The provenance sidecar is line for line with the data.
          expect(w.provenance).toHaveLength(w.lines.length);
          const problems: string[] = [];
          for (const [i, line] of w.lines.entries()) {
            const prov = w.provenance[i]!;
            const mask = prov.kind === "segment" ? facts.get(prov.trajectoryId) : undefined;
            for (const x of CHECKS[format](line, mask)) problems.push(`${name} row ${i + 1} (${prov.trajectoryId}): ${x}`);
          }
          expect(problems.slice(0, 20)).toEqual([]);
          // Rows written + rows dropped (nothing to train) = the dataset's items, and the card says so.
          const items = await t.db.datasetItem.count({ where: { datasetVersion: { dataset: { name } } } });
          const m = /rows written: (\d+); dropped for having no trained assistant turn: (\d+)/.exec(w.card);
          expect(m).not.toBeNull();
          expect(Number(m![1])).toBe(w.lines.length);
          expect(Number(m![1]) + Number(m![2])).toBe(items);
          expect(w.card).toContain("observations: **rendered**");
          if (format === "sharegpt")
            expect(checkDatasetInfo(fs.readFileSync(path.join(w.dir, "dataset_info.json"), "utf8"), w.dataFile)).toEqual([]);
        }
      }, 120_000);
    }

    it("declares tools from the source where it has them and marks inferred ones in the card", async () => {
      const w = await write(t.ctx, { name: "mixed", format: "openai" }, "tools");
      const rows = w.lines.map(
        (l) =>
          JSON.parse(l) as {
            tools?: { function: { name: string; description: string } }[];
            messages: { tool_calls?: { function: { name: string } }[] }[];
          },
      );
      // Every tool a row calls is declared in it (the generator's trajectories call tools too); the typed-command
      // `terminal` tool and the source-defined ones come from the shared recordings and agent logs, so those need ../shared.
      const calling = rows.filter((r) => r.messages.some((m) => m.tool_calls?.length));
      expect(calling.length).toBeGreaterThan(0);
      for (const r of calling) {
        const declared = new Set(r.tools?.map((x) => x.function.name));
        for (const m of r.messages) for (const c of m.tool_calls ?? []) expect(declared.has(c.function.name), c.function.name).toBe(true);
      }
      if (hasSharedFixtures) {
        expect(rows.some((r) => r.tools?.some((x) => x.function.name === "terminal"))).toBe(true);
        expect(w.card).toContain("| `terminal` | ReTerm's `terminal` tool");
        // ATIF's tool_definitions and the OpenAI file's `tools` are the source's own; SWE-agent's calls are inferred.
        expect(
          rows.some((r) =>
            r.tools?.some((x) => x.function.name === "execute_bash" && x.function.description.startsWith("Execute a bash command")),
          ),
        ).toBe(true);
        expect(w.card).toMatch(/\| `execute_bash` \| defined by the source \|/);
        // Inspect's model events carry the tool info the model was offered.
        expect(w.card).toMatch(/\| `web_browser_go` \| defined by the source \|/);
        expect(w.card).toMatch(/\*\*inferred\*\* from the recorded calls/);
      }
    });

    it("keeps raw bytes when asked, renders by default, and is deterministic either way", async () => {
      const rendered = await write(t.ctx, { name: "segments", format: "openai" }, "rendered");
      const raw = await write(t.ctx, { name: "segments", format: "openai", options: { observations: "raw" } }, "raw");
      expect(raw.lines.some((l) => l.includes("\\u001b["))).toBe(true);
      expect(rendered.lines.some((l) => l.includes("\\u001b"))).toBe(false);
      expect(raw.card).toContain("observations: **raw**");
      const again = await write(t.ctx, { name: "segments", format: "openai", options: { observations: "raw" } }, "raw2");
      expect(again.lines).toEqual(raw.lines);
    });

    it("stores a frozen version's exports in the new formats too; other options render from the items", async () => {
      await freezeDataset(t.ctx, { name: "segments" });
      const stored = await storeFrozenExports(t.ctx, { name: "segments", version: 1 });
      expect(stored.map((s) => s.format)).toEqual(expect.arrayContaining(["openai", "trl", "sharegpt", "axolotl"]));
      for (const format of ["trl", "axolotl"] as const) {
        const fromStore = await write(t.ctx, { name: "segments", format }, `stored-${format}`);
        // Non-default options render from the items; the default ones stream the stored bytes.
        const renderedCtx = await write(t.ctx, { name: "segments", format, options: { context: "prompt" } }, `prompt-${format}`);
        for (const [i, line] of renderedCtx.lines.entries()) expect(CHECKS[format](line, undefined), `row ${i + 1}`).toEqual([]);
        expect(fromStore.lines.length).toBeGreaterThan(0);
        // The provenance sidecar is stored beside the data and streamed with it, line for line.
        expect(await t.db.frozenExport.count({ where: { format: `${format}.provenance` } })).toBe(1);
        expect(fromStore.provenance).toHaveLength(fromStore.lines.length);
      }
    }, 120_000);

    it("fits rows into a token budget without cutting the recovery, and counts what it did", async () => {
      const w = await write(t.ctx, { name: "segments", format: "axolotl", options: { maxTokens: 400 } }, "budget");
      const m = /truncated (\d+) rows; .* dropped (\d+) rows/.exec(w.card);
      expect(m).not.toBeNull();
      const truncated = Number(m![1]);
      const dropped = Number(m![2]);
      expect(truncated + dropped).toBeGreaterThan(0);
      expect(w.card).toContain("o200k_base");
      for (const [i, line] of w.lines.entries()) {
        const prov = w.provenance[i]!;
        // Truncation removes context only: every trained turn is still there.
        expect(
          checkAxolotlLine(line, {
            contextAgentSteps: 0,
            recoveryAgentSteps: facts.get(prov.trajectoryId)?.recoveryAgentSteps ?? Infinity,
          }),
        ).toEqual([]);
      }
    }, 120_000);

    it("tells the export form which versions hold held-out tasks (it then asks for a reason), and the guard agrees", async () => {
      const { versions } = await getDatasetDetail(t.ctx, "mixed");
      expect(await listVersionLeaks(t.ctx, versions)).toEqual({});
      const item = await t.db.datasetItem.findFirstOrThrow({
        where: { datasetVersion: { dataset: { name: "mixed" } } },
        select: { trajectory: { select: { task: { select: { benchmark: true, externalId: true } } } } },
      });
      const ref = `${item.trajectory.task.benchmark}/${item.trajectory.task.externalId}`;
      await markHeldOut(t.ctx, { tasks: [ref], reason: "eval" });
      try {
        const leaks = await listVersionLeaks(t.ctx, versions);
        expect(Object.values(leaks).flat()).toContain(ref);
        await expect(openExport(t.ctx, { name: "mixed", format: "trl" })).rejects.toMatchObject({ code: "CONFLICT" });
        const opened = await openExport(t.ctx, { name: "mixed", format: "trl", override: { reason: "checked with the eval owners" } });
        await opened.close();
      } finally {
        await unmarkHeldOut(t.ctx, { tasks: [ref] });
      }
    });
  });
}
