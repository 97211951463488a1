// Curation end to end on both databases: datasets from a filter / labels / as recovery segments, freezing, the leakage
// guard, concurrency, every export format validated row by row, determinism, and the lossless native round trip.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { createDataset, editDatasetItems, rebuildDataset } from "../../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../../lib/services/curation/freeze-dataset.ts";
import { openExport, writeExportFiles, type ExportInput } from "../../lib/services/curation/export-dataset.ts";
import { listHeldOutTasks, markHeldOut, unmarkHeldOut } from "../../lib/services/curation/held-out.ts";
import { getExportJob, openExportFile, startExportJob } from "../../lib/services/curation/export-jobs.ts";
import { startJobWorker } from "../../lib/services/jobs/start-worker.ts";
import { compareWithPrevious, getDatasetDetail } from "../../lib/services/curation/view-datasets.ts";
import { checkOpenAiLine } from "../helpers/trainer-rules/openai.ts";
import { checkShareGptLine } from "../helpers/trainer-rules/llama-factory.ts";
import type { Provenance } from "../../lib/domain/curation/types.ts";
import { nativeRowSchema } from "../../lib/exporters/native.ts";
import { LABEL_COLUMNS, labelRowSchema } from "../../lib/exporters/labels.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";
import type { ZodType } from "zod";

/** A stream's whole content as UTF-8. */
async function text(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString("utf8");
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-curation-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function importNative(ctx: ServiceContext, rows: unknown[]) {
  return importTrajectories(
    ctx,
    rows.map((r, i) => normalized(r, "native", "test.jsonl", i + 1)),
    { origin: "cli", indexSearch: false },
  );
}

async function exportText(ctx: ServiceContext, input: ExportInput): Promise<{ text: string; card: string; provenance: Provenance[] }> {
  const opened = await openExport(ctx, input);
  let text = "";
  for await (const piece of opened.pieces()) text += piece;
  let prov = "";
  const sidecar = opened.sidecars.find((s) => s.kind === "provenance");
  if (sidecar) for await (const piece of sidecar.pieces()) prov += piece;
  return {
    text,
    card: opened.card(),
    provenance: prov
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Provenance),
  };
}

const jsonLines = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
function expectAllValid(rows: unknown[], schema: ZodType) {
  for (const [i, row] of rows.entries()) {
    const r = schema.safeParse(row);
    if (!r.success) throw new Error(`row ${i + 1}: ${r.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`);
  }
}

/** Seed labels straight into the Annotation table (label writing is the annotation issue's). */
async function seedLabels(t: TestDatabase, ids: string[]) {
  const annotator = await t.as("ann-1", "annotator");
  const quality = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "recovery-quality" } });
  const category = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
  for (const [i, id] of ids.entries()) {
    await t.db.annotation.create({
      data: {
        schemaId: quality.id,
        annotatorId: annotator.actor.id,
        targetType: "attempt",
        targetKey: `attempt:${id}`,
        trajectoryId: id,
        value: String(i % 4),
        comment: i === 0 ? 'needs, "quotes"\nand lines' : null,
      },
    });
    await t.db.annotation.create({
      data: {
        schemaId: category.id,
        annotatorId: annotator.actor.id,
        targetType: "step_range",
        targetKey: `steps:${id}:1-2`,
        trajectoryId: id,
        stepStart: 1,
        stepEnd: 2,
        value: "command-error",
      },
    });
  }
}

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`curation (${p.title})`, () => {
    let t: TestDatabase;
    let other: TestDatabase;
    const generated = [...generateTrajectories({ count: 60, seed: 10, recordingRate: 0.5 })];

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await startJobWorker(t.db);
      other = await createTestDatabase(p.provider);
      const report = await importNative(t.ctx, generated);
      expect(report.imported).toBe(generated.length);
      const attempts = await t.db.trajectory.findMany({ where: { parentId: { not: null } }, select: { id: true }, orderBy: { id: "asc" } });
      await seedLabels(
        t,
        attempts.slice(0, 8).map((a) => a.id),
      );
    }, 120_000);
    afterAll(async () => {
      await t?.drop();
      await other?.drop();
    });

    it("builds a dataset from a table filter: every matching trajectory, in list order", async () => {
      const { dataset, built } = await createDataset(t.ctx, { name: "passed", rules: { source: "filter", filter: "outcome=passed" } });
      const passed = await t.db.trajectory.count({ where: { outcome: "passed" } });
      expect(passed).toBeGreaterThan(0);
      expect(built.items).toHaveLength(passed);
      expect(dataset.latest).toMatchObject({ version: 1, itemCount: passed, frozenAt: null });
      await expect(createDataset(t.ctx, { name: "passed", rules: { source: "filter", filter: "" } })).rejects.toMatchObject({
        code: "CONFLICT",
      });
      await expect(createDataset(t.ctx, { name: "bad", rules: { source: "filter", filter: "outcome=maybe" } })).rejects.toMatchObject({
        code: "INVALID_INPUT",
      });
    });

    it("builds recovery segments (parent context → passed attempt) and exports valid OpenAI and ShareGPT rows", async () => {
      const { built } = await createDataset(t.ctx, { name: "recovery", rules: { source: "filter", filter: "", kind: "segment" } });
      const passedAttempts = await t.db.trajectory.count({
        where: { parentId: { not: null }, forkStepIndex: { not: null }, outcome: "passed" },
      });
      expect(passedAttempts).toBeGreaterThan(0);
      expect(built.items).toHaveLength(passedAttempts);
      expect(built.items.every((i) => i.kind === "segment")).toBe(true);

      const exported = await exportText(t.ctx, { name: "recovery", format: "openai" });
      const openai = jsonLines(exported.text);
      expect(openai).toHaveLength(passedAttempts);
      exported.text
        .split("\n")
        .filter(Boolean)
        .forEach((l, i) => expect(checkOpenAiLine(l), `row ${i + 1}`).toEqual([]));
      type Row = { messages: { role: string; weight?: number; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
      const first = openai[0] as Row;
      const prov = exported.provenance[0]!;
      expect(prov).toMatchObject({ kind: "segment", dataset: "recovery", version: null });
      expect(prov.parentTrajectoryId).not.toBeNull();
      expect(prov.forkStep).not.toBeNull();
      // Context (the failed parent up to the fork) is masked; the recovery is trained on.
      const weights = first.messages.flatMap((m) => (m.role === "assistant" ? [m.weight] : []));
      expect(weights).toContain(0);
      expect(weights.at(-1)).toBe(1);
      expect(weights.indexOf(1)).toBeGreaterThan(weights.lastIndexOf(0));
      // The context is exactly the parent's steps 0..forkStep.
      const parentSteps = await t.db.step.count({
        where: { trajectoryId: prov.parentTrajectoryId!, index: { lte: prov.forkStep! }, source: "agent" },
      });
      expect(weights.filter((w) => w === 0)).toHaveLength(parentSteps);
      // The agent's tool calls are kept, and every tool result answers a call made before it.
      const callIds = new Set<string>();
      for (const m of first.messages) {
        if (m.role === "assistant") m.tool_calls?.forEach((c) => callIds.add(c.id));
        if (m.role === "tool") expect(callIds.has(m.tool_call_id!)).toBe(true);
      }
      expect(callIds.size).toBeGreaterThan(0);

      const sharegpt = (await exportText(t.ctx, { name: "recovery", format: "sharegpt" })).text.split("\n").filter(Boolean);
      sharegpt.forEach((l, i) => expect(checkShareGptLine(l), `row ${i + 1}`).toEqual([]));
      expect(sharegpt).toHaveLength(passedAttempts);
    });

    it("applies quality filters with real token counts and removes duplicates", async () => {
      const { built } = await createDataset(t.ctx, {
        name: "short",
        rules: { source: "filter", filter: "", quality: { maxTokens: 600, minSteps: 3, dedupeExact: true } },
      });
      const all = await t.db.trajectory.count();
      expect(built.items.length).toBeGreaterThan(0);
      expect(built.items.length).toBeLessThan(all);
      expect((built.rejected["too-many-tokens"] ?? 0) + (built.rejected["too-few-steps"] ?? 0)).toBe(
        all - built.items.length - (built.rejected.duplicate ?? 0),
      );
      const rows = jsonLines((await exportText(t.ctx, { name: "short", format: "openai" })).text);
      expect(rows).toHaveLength(built.items.length);
    });

    it("selects by label values (a queue's labels) and exports one label row per label as CSV and JSONL", async () => {
      const { built } = await createDataset(t.ctx, {
        name: "good-recoveries",
        rules: { source: "labels", labels: { schema: "recovery-quality", min: 2 } },
      });
      expect(built.items).toHaveLength(4); // values 0,1,2,3,0,1,2,3 → four ≥ 2
      const jsonl = jsonLines((await exportText(t.ctx, { name: "good-recoveries", format: "labels-jsonl" })).text);
      expectAllValid(jsonl, labelRowSchema);
      expect(jsonl).toHaveLength(8); // two labels each
      const csv = (await exportText(t.ctx, { name: "good-recoveries", format: "labels-csv" })).text;
      const lines = csv.split("\r\n").filter(Boolean);
      expect(lines[0]).toBe(LABEL_COLUMNS.join(","));
      expect(lines).toHaveLength(9);
      await expect(
        createDataset(t.ctx, { name: "no-rule", rules: { source: "labels", labels: { schema: "recovery-quality" } } }),
      ).rejects.toThrow(/values or a minimum/);
    });

    it("selects by gold labels and by a queue's agreed labels (majority / all), stored so the dataset rebuilds", async () => {
      const attempts = (
        await t.db.trajectory.findMany({ where: { parentId: { not: null } }, select: { id: true }, orderBy: { id: "asc" } })
      )
        .slice(0, 4)
        .map((a) => a.id);
      const schema = async (key: string) => (await t.db.labelSchema.findUniqueOrThrow({ where: { key } })).id;
      const [quality, usable] = [await schema("recovery-quality"), await schema("sft-usable")];
      const reviewer = await t.as("reviewer-1", "researcher");
      // Gold: quality 3,1,2,3 and usable true,true,false,true → "adjudicated usable with quality ≥ 2" = attempts 0 and 3.
      for (const [i, id] of attempts.entries()) {
        await t.db.goldLabel.create({
          data: {
            schemaId: quality,
            targetKey: `attempt:${id}`,
            targetType: "attempt",
            trajectoryId: id,
            value: ["3", "1", "2", "3"][i]!,
            adjudicatorId: reviewer.actor.id,
          },
        });
        await t.db.goldLabel.create({
          data: {
            schemaId: usable,
            targetKey: `attempt:${id}`,
            targetType: "attempt",
            trajectoryId: id,
            value: i === 2 ? "false" : "true",
            adjudicatorId: reviewer.actor.id,
          },
        });
      }
      const gold = await createDataset(t.ctx, {
        name: "gold-usable",
        rules: {
          source: "labels",
          labels: [
            { schema: "recovery-quality", min: 2, by: "gold" },
            { schema: "sft-usable", values: ["true"], by: "gold" },
          ],
        },
      });
      expect(gold.built.items.map((i) => i.trajectoryId)).toEqual([attempts[0], attempts[3]]);

      // A queue of the four attempts in reverse order, two labels per item. ann-1 gave 0,1,2,3 (seedLabels);
      // ann-2 gives 3,1,2,0 and ann-3 gives attempt 0 a 2: quality ≥ 2 by majority = attempts 0 (2 of 3) and 2; by all = 2.
      const creator = t.ctx.actor.id;
      await t.db.annotationQueue.create({
        data: {
          name: "triage",
          filter: "{}",
          schemaKeys: JSON.stringify(["recovery-quality"]),
          labelsPerItem: 2,
          itemCount: 4,
          createdById: creator,
          items: { create: [...attempts].reverse().map((trajectoryId, position) => ({ trajectoryId, position })) },
        },
      });
      const label = async (annotator: string, id: string, value: string) => {
        const a = await t.as(annotator, "annotator");
        await t.db.annotation.create({
          data: { schemaId: quality, annotatorId: a.actor.id, targetType: "attempt", targetKey: `attempt:${id}`, trajectoryId: id, value },
        });
      };
      for (const [i, id] of attempts.entries()) await label("ann-2", id, ["3", "1", "2", "0"][i]!);
      await label("ann-3", attempts[0]!, "2");
      const majority = await createDataset(t.ctx, {
        name: "triage-majority",
        rules: { source: "labels", queue: "triage", labels: { schema: "recovery-quality", min: 2, by: "majority" } },
      });
      expect(majority.built.items.map((i) => i.trajectoryId)).toEqual([attempts[2], attempts[0]]); // queue order
      const all = await createDataset(t.ctx, {
        name: "triage-all",
        rules: { source: "labels", queue: "triage", labels: [{ schema: "recovery-quality", min: 2, by: "all" }] },
      });
      expect(all.built.items.map((i) => i.trajectoryId)).toEqual([attempts[2]]);
      // Outside the queue, "any label ≥ 2" also takes attempts with a single label (seedLabels' attempts 6 and 7).
      const any = await createDataset(t.ctx, {
        name: "any-good",
        rules: { source: "labels", labels: { schema: "recovery-quality", min: 2 } },
      });
      expect(any.built.items.length).toBeGreaterThan(majority.built.items.length);

      // The rule is stored; a third annotator agreeing on attempt 3 changes the rebuilt majority.
      expect((await getDatasetDetail(t.ctx, "triage-majority")).rules).toMatchObject({ source: "labels", queue: "triage" });
      await label("ann-3", attempts[3]!, "3");
      const d = (await getDatasetDetail(t.ctx, "triage-majority")).dataset;
      const rebuilt = await rebuildDataset(t.ctx, "triage-majority", d.revision);
      expect(rebuilt.built.items.map((i) => i.trajectoryId)).toEqual([attempts[3], attempts[2], attempts[0]]);

      await expect(
        createDataset(t.ctx, {
          name: "nope-1",
          rules: { source: "labels", queue: "no-such-queue", labels: { schema: "recovery-quality", min: 2 } },
        }),
      ).rejects.toThrow(/queue: no annotation queue named "no-such-queue"/);
      await expect(
        createDataset(t.ctx, {
          name: "nope-2",
          rules: {
            source: "labels",
            labels: [
              { schema: "recovery-quality", min: 2 },
              { schema: "no-such-schema", values: ["x"] },
            ],
          },
        }),
      ).rejects.toThrow(/labels\[1\]\.schema: no label schema "no-such-schema"/);
      expect(await t.db.dataset.count({ where: { name: { startsWith: "nope-" } } })).toBe(0);
    });

    it("freezes versions that later edits never change, compares them, and refuses stale edits (409)", async () => {
      const before = await getDatasetDetail(t.ctx, "passed");
      const frozen = await freezeDataset(t.ctx, { name: "passed" });
      expect(frozen).toMatchObject({ version: 1, itemCount: before.dataset.latest!.itemCount });
      expect(frozen.contentHash).toMatch(/^[0-9a-f]{64}$/);
      await expect(freezeDataset(t.ctx, { name: "passed" })).rejects.toMatchObject({ code: "CONFLICT" });
      // Version 1 has nothing before it: every item it holds counts as added.
      const first = await compareWithPrevious(t.ctx, "passed", 1);
      const v1Ids = await t.db.datasetItem.findMany({
        where: { datasetVersion: { dataset: { name: "passed" }, version: 1 } },
        select: { trajectoryId: true },
      });
      expect(first.from).toBeNull();
      expect(first.removed).toEqual([]);
      expect(first.added).toHaveLength(frozen.itemCount);
      expect([...first.added].sort()).toEqual(v1Ids.map((i) => i.trajectoryId).sort());

      const d = (await getDatasetDetail(t.ctx, "passed")).dataset;
      const failed = await t.db.trajectory.findFirstOrThrow({ where: { outcome: "failed" }, select: { id: true } });
      const some = (
        await t.db.datasetItem.findFirstOrThrow({
          where: { datasetVersion: { datasetId: d.id, version: 1 } },
          select: { trajectoryId: true },
        })
      ).trajectoryId;
      const edit = await editDatasetItems(t.ctx, { name: "passed", expectedRevision: d.revision, add: [failed.id], remove: [some] });
      await expect(editDatasetItems(t.ctx, { name: "passed", expectedRevision: d.revision, add: [], remove: [] })).rejects.toMatchObject({
        code: "CONFLICT",
      });
      await expect(freezeDataset(t.ctx, { name: "passed", expectedRevision: d.revision })).rejects.toMatchObject({ code: "CONFLICT" });

      const detail = await getDatasetDetail(t.ctx, "passed");
      const v1 = detail.versions.find((v) => v.version === 1)!;
      expect(v1.itemCount).toBe(frozen.itemCount);
      expect(v1.contentHash).toBe(frozen.contentHash);
      expect(detail.versions[0]).toMatchObject({ version: 2, frozenAt: null, itemCount: frozen.itemCount });

      const v2 = await freezeDataset(t.ctx, { name: "passed", expectedRevision: edit.revision });
      expect(v2.version).toBe(2);
      expect(v2.contentHash).not.toBe(frozen.contentHash);
      expect(await compareWithPrevious(t.ctx, "passed", 2)).toEqual({ from: 1, added: [failed.id], removed: [some] });
      // Version 1 still exports its own items.
      const v1Export = await exportText(t.ctx, { name: "passed", version: 1, format: "openai" });
      expect(jsonLines(v1Export.text)).toHaveLength(frozen.itemCount);
      expect(v1Export.provenance.map((r) => r.trajectoryId)).toContain(some);
    });

    it("builds a dataset from a hand selection: exactly the selected trajectories, once each; unknown ids refuse it whole", async () => {
      const picked = (await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "desc" }, take: 5 })).map((r) => r.id);
      const { dataset, built } = await createDataset(t.ctx, {
        name: "picked",
        rules: { source: "selection", ids: [...picked, picked[0]!] },
      });
      expect(built.items.map((i) => i.trajectoryId).sort()).toEqual([...picked].sort());
      expect(dataset).toMatchObject({ itemKind: "trajectory", latest: { version: 1, itemCount: 5 } });
      expect(JSON.parse((await t.db.dataset.findUniqueOrThrow({ where: { id: dataset.id } })).rules!)).toMatchObject({
        source: "selection",
        ids: [...picked, picked[0]!],
      });
      await expect(
        createDataset(t.ctx, { name: "picked-bad", rules: { source: "selection", ids: [picked[0]!, "no-such-trajectory"] } }),
      ).rejects.toThrow(/no-such-trajectory/);
      expect(await t.db.dataset.count({ where: { name: "picked-bad" } })).toBe(0);
      // As recovery segments only passed attempts become items.
      const attempts = await t.db.trajectory.findMany({
        where: { parentId: { not: null }, forkStepIndex: { not: null } },
        select: { id: true, outcome: true },
        take: 12,
      });
      const { built: segs } = await createDataset(t.ctx, {
        name: "picked-segments",
        rules: { source: "selection", ids: attempts.map((a) => a.id), kind: "segment" },
      });
      expect(segs.items.map((i) => i.trajectoryId).sort()).toEqual(
        attempts
          .filter((a) => a.outcome === "passed")
          .map((a) => a.id)
          .sort(),
      );
    });

    it("holds tasks out by benchmark/id or bare id, lists them with the reason, and releases them", async () => {
      const task = await t.db.task.findFirstOrThrow({ select: { benchmark: true, externalId: true } });
      expect(await markHeldOut(t.ctx, { tasks: [`${task.benchmark}/${task.externalId}`, "bare-task"], reason: "eval set" })).toBe(2);
      expect(await markHeldOut(t.ctx, { tasks: ["bare-task"] })).toBe(0);
      // (Compared sorted here: the two databases collate "*" differently.)
      expect((await listHeldOutTasks(t.ctx)).map((h) => `${h.benchmark}|${h.externalId}|${h.reason}`).sort()).toEqual(
        [`*|bare-task|eval set`, `${task.benchmark}|${task.externalId}|eval set`].sort(),
      );
      const annotator = await t.as("ann-held-out", "annotator");
      await expect(markHeldOut(annotator, { tasks: ["x"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(unmarkHeldOut(annotator, { tasks: ["*/bare-task"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
      expect(await unmarkHeldOut(t.ctx, { tasks: ["*/bare-task"] })).toBe(1);
      expect(await unmarkHeldOut(t.ctx, { tasks: [`${task.benchmark}/${task.externalId}`] })).toBe(1);
      expect(await listHeldOutTasks(t.ctx)).toEqual([]);
    });

    it("blocks freeze and export of held-out tasks unless overridden, and records the override", async () => {
      await createDataset(t.ctx, { name: "leaky", rules: { source: "filter", filter: "" } });
      const task = await t.db.task.findFirstOrThrow({ select: { benchmark: true, externalId: true } });
      await markHeldOut(t.ctx, { tasks: [`${task.benchmark}/${task.externalId}`], reason: "eval set" });
      const name = `${task.benchmark}/${task.externalId}`;
      await expect(freezeDataset(t.ctx, { name: "leaky" })).rejects.toThrow(name);
      await expect(openExport(t.ctx, { name: "leaky", format: "openai" })).rejects.toMatchObject({ code: "CONFLICT" });
      await expect(openExport(t.ctx, { name: "passed", version: 1, format: "openai" })).rejects.toThrow(/held-out/);
      await freezeDataset(t.ctx, { name: "leaky", override: { reason: "ablation only, never for eval" } });
      const v = (await getDatasetDetail(t.ctx, "leaky")).versions[0]!;
      expect(v.manifest?.leakageOverride).toMatchObject({ reason: "ablation only, never for eval", tasks: [name], by: t.ctx.actor.name });
      const { card } = await exportText(t.ctx, { name: "leaky", format: "sharegpt" });
      expect(card).toContain("held-out tasks included by override");
      // The audit log has the overridden freeze and the export that followed, naming the held-out task; the refused
      // attempts left nothing there.
      const audit = (await listAuditEvents(t.ctx, { action: "dataset.", limit: 10_000 })).filter((e) => e.targetId === "leaky");
      expect(audit.map((e) => e.action).reverse()).toEqual(["dataset.freeze", "dataset.export"]);
      expect(JSON.parse(audit[0]!.details ?? "{}").heldOutOverride.tasks).toEqual([name]);
      // Other datasets are unaffected once the task is released.
      await t.db.heldOutTask.deleteMany({});
    });

    it("exports byte-identical files twice, with the card beside the data", async () => {
      for (const format of ["openai", "sharegpt", "native", "labels-csv", "labels-jsonl"] as const) {
        const dir = path.join(tmp, `${p.provider}-${format}`);
        fs.mkdirSync(dir);
        const a = await writeExportFiles(await openExport(t.ctx, { name: "passed", format }), path.join(dir, "a"));
        const first = fs.readFileSync(path.join(dir, "a"));
        const cardA = fs.readFileSync(a.cardPath, "utf8");
        await writeExportFiles(await openExport(t.ctx, { name: "passed", format }), path.join(dir, "b"));
        expect(fs.readFileSync(path.join(dir, "b")).equals(first), format).toBe(true);
        expect(fs.readFileSync(a.cardPath, "utf8")).toBe(cardA);
        expect(cardA).toContain("content hash");
      }
    });

    it("an export that fails part-way leaves no file under its name (and no partial file)", async () => {
      const dir = path.join(tmp, `${p.provider}-failed`);
      fs.mkdirSync(dir);
      const opened = await openExport(t.ctx, { name: "passed", format: "openai" });
      const failing = {
        ...opened,
        async *pieces() {
          yield '{"messages":[]}\n';
          throw new Error("disk went away");
        },
      };
      await expect(writeExportFiles(failing, path.join(dir, "out.jsonl"))).rejects.toThrow("disk went away");
      expect(fs.readdirSync(dir)).toEqual([]);
      // A complete export appears under its name only.
      await writeExportFiles(opened, path.join(dir, "out.jsonl"));
      expect(fs.readdirSync(dir).sort()).toEqual(["README.md", "out.jsonl", "out.provenance.jsonl"]);
    });

    it("native round trip is lossless: trajectories, steps, recordings, fork links and labels", async () => {
      await createDataset(t.ctx, { name: "everything", rules: { source: "filter", filter: "" } });
      await freezeDataset(t.ctx, { name: "everything" });
      const first = await exportText(t.ctx, { name: "everything", format: "native" });
      const rows = jsonLines(first.text);
      expectAllValid(rows, nativeRowSchema);
      expect(rows).toHaveLength(generated.length);

      const report = await importNative(other.ctx, rows);
      expect(report).toMatchObject({ imported: generated.length, failed: 0 });
      expect(report.warnings).toEqual([]);
      await createDataset(other.ctx, { name: "everything", rules: { source: "filter", filter: "" } });
      await freezeDataset(other.ctx, { name: "everything" });
      const second = jsonLines((await exportText(other.ctx, { name: "everything", format: "native" })).text);

      const strip = (r: unknown) => {
        const { provenance: _p, ...rest } = r as Record<string, unknown>;
        return rest;
      };
      const byId = (list: unknown[]) => new Map(list.map((r) => [(r as { id: string }).id, strip(r)]));
      expect(byId(second)).toEqual(byId(rows));

      const count = async (db: TestDatabase["db"]) => ({
        trajectories: await db.trajectory.count(),
        steps: await db.step.count(),
        recordings: await db.recording.count(),
        events: (await db.recording.aggregate({ _sum: { eventCount: true } }))._sum.eventCount,
        attempts: await db.trajectory.count({ where: { parentId: { not: null } } }),
        forkPoints: await db.forkPoint.count(),
        labels: await db.annotation.count(),
      });
      const a = await count(t.db),
        b = await count(other.db);
      expect(a.recordings).toBeGreaterThan(0);
      expect(a.labels).toBe(22); // seedLabels 16 + the label-rule test's 6
      expect(b).toEqual(a);
    }, 120_000);

    it("runs a background export job to a finished, downloadable file identical to the streamed export", async () => {
      const job = await startExportJob(t.ctx, { name: "passed", format: "sharegpt" });
      expect(job).toMatchObject({ status: "running", rowsTotal: expect.any(Number) });
      let now = job;
      for (let i = 0; i < 200 && now.status === "running"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        now = await getExportJob(t.ctx, job.id);
      }
      expect(now).toMatchObject({ status: "succeeded", ready: true, rowsWritten: job.rowsTotal });
      const file = await openExportFile(t.ctx, job.id, "data");
      const data = await text(file.body);
      expect(data).toBe((await exportText(t.ctx, { name: "passed", format: "sharegpt" })).text);
      expect(file.size).toBe(Buffer.byteLength(data));
      expect(await text((await openExportFile(t.ctx, job.id, "card")).body)).toContain("ShareGPT");
      const viewer = await t.as("viewer-1", "viewer");
      await expect(startExportJob(viewer, { name: "passed", format: "openai" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    });

    it("rebuilds a dataset from its stored rules", async () => {
      const d = (await getDatasetDetail(t.ctx, "recovery")).dataset;
      const { built } = await rebuildDataset(t.ctx, "recovery", d.revision);
      expect(built.items.length).toBe(d.latest!.itemCount);
    });
  });
}
