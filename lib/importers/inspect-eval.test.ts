// Inspect `.eval` archives, zipped in the test from hand-written logs (and, when ../shared is there, from the shared
// JSON logs): they must import to exactly what the equivalent JSON log imports to.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { strToU8, zipSync, type Zippable } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import { nullNonFinite } from "./chat-steps.ts";
import { EVAL_LIMITS, openEvalArchive } from "./inspect-eval.ts";
import { inspectImporter } from "./inspect.ts";
import { fileSource } from "./source.ts";
import type { ImportRecord } from "./types.ts";
import { isRecord } from "./util.ts";
import { walkInputs } from "./walk.ts";

/** Everything the importer yields for `file`, which messages name by its base name. */
async function readAll(file: string): Promise<ImportRecord[]> {
  const out: ImportRecord[] = [];
  for await (const r of inspectImporter.read(await fileSource(file, path.basename(file)), {})) out.push(r);
  return out;
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-inspect-eval-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const trajectories = (records: ImportRecord[]): TrajectoryInput[] => records.flatMap((r) => (r.ok ? [r.value.trajectory] : []));
const issues = (records: ImportRecord[]) => records.flatMap((r) => (r.ok ? [] : [r.issue]));

function sample(id: number, command: string, output: string, score: string): Record<string, unknown> {
  return {
    id,
    epoch: 1,
    input: `Task ${id}: run ${command}`,
    target: "done",
    messages: [
      { role: "user", content: `Task ${id}: run ${command}` },
      { role: "assistant", content: "Running it.", tool_calls: [{ id: `call-${id}`, function: "bash", arguments: { cmd: command } }] },
      { role: "tool", tool_call_id: `call-${id}`, function: "bash", content: "attachment://out" },
      { role: "assistant", content: "Done." },
    ],
    scores: { verify: { value: score, explanation: `${score} for ${id}` } },
    model_usage: { "openai/gpt-test": { input_tokens: 10 * id, output_tokens: id } },
    total_time: 1.5,
    events: [
      { timestamp: "2026-03-01T10:00:00+00:00", event: "sample_init" },
      { timestamp: "2026-03-01T10:00:04+00:00", event: "score" },
    ],
    attachments: { out: output },
  };
}

const header = {
  version: 2,
  status: "success",
  eval: { eval_id: "ev-1", run_id: "run-1", task: "shell_tasks", model: "openai/gpt-test", created: "2026-03-01T09:59:00+00:00" },
  plan: { name: "plan", steps: [{ solver: "basic_agent" }] },
  results: { total_samples: 2, completed_samples: 2, scores: [{ name: "verify", metrics: { accuracy: { value: 0.5 } } }] },
  stats: { started_at: "2026-03-01T09:59:00+00:00", completed_at: "2026-03-01T10:01:00+00:00" },
};
// Inspect's order is by epoch, then id: 2 before 10 (a plain name sort would put samples/10_… first).
const samples = [sample(2, "ls", "a.txt", "C"), sample(10, "make", "make: *** No rule", "I")];

function writeJsonLog(name: string, log: Record<string, unknown>): string {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, JSON.stringify(log));
  return f;
}

/** A .eval archive laid out as Inspect writes it: header.json, one entry per sample, summaries and the journal. */
function evalParts(log: Record<string, unknown>, sampleList: Record<string, unknown>[]): Zippable {
  const parts: Zippable = {
    "_journal/start.json": strToU8(JSON.stringify({ version: log.version, eval: log.eval, plan: log.plan })),
    // Reverse order inside the archive: the reader must not depend on it.
    ...Object.fromEntries(
      sampleList.toReversed().map((s) => [`samples/${String(s.id)}_epoch_${String(s.epoch)}.json`, strToU8(JSON.stringify(s))]),
    ),
    "summaries.json": strToU8(JSON.stringify(sampleList.map((s) => ({ id: s.id, epoch: s.epoch, scores: s.scores })))),
    "header.json": strToU8(JSON.stringify(log)),
  };
  return parts;
}

function writeEval(name: string, parts: Zippable | Uint8Array): string {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, parts instanceof Uint8Array ? parts : zipSync(parts));
  return f;
}

/** Set the uncompressed size the central directory states for `entry` (a zip bomb's lie, or a huge entry). */
function withStatedSize(zip: Uint8Array, entry: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let p = 0; p + 46 <= out.length; p++) {
    if (view.getUint32(p, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(p + 28, true);
    if (Buffer.from(out.subarray(p + 46, p + 46 + nameLength)).toString("utf8") === entry) {
      view.setUint32(p + 24, size, true);
      return out;
    }
  }
  throw new Error(`no central directory entry ${entry}`);
}

describe("Inspect .eval archives", () => {
  const jsonFile = writeJsonLog("shell.json", { ...header, samples });
  const evalFile = writeEval("shell.eval", evalParts(header, samples));

  it("is detected by extension and ZIP magic, and found by the walker as an Inspect log", async () => {
    expect(inspectImporter.detect(await fileSource(evalFile))).toBe(0.95);
    const zipNamedJson = writeEval("not-eval.zip", evalParts(header, samples));
    expect(inspectImporter.detect(await fileSource(zipNamedJson))).toBe(0);
    const units = [];
    for await (const u of walkInputs([evalFile]))
      units.push(u.kind === "source" ? `${u.importer.format}:${u.source.displayPath}` : `unrecognised:${u.displayPath}`);
    expect(units).toEqual(["inspect:shell.eval"]);
  });

  it("imports to the same trajectories as the JSON form, in Inspect's sample order", async () => {
    const fromEval = await readAll(evalFile);
    const fromJson = await readAll(jsonFile);
    expect(issues(fromEval)).toEqual([]);
    expect(trajectories(fromEval)).toHaveLength(2);
    expect(trajectories(fromEval)).toEqual(trajectories(fromJson));
    const [first, second] = trajectories(fromEval);
    expect([first!.task.id, first!.outcome, first!.steps[1]!.action, first!.steps[1]!.observation]).toEqual(["2", "passed", "ls", "a.txt"]);
    expect([second!.task.id, second!.outcome, second!.reward, second!.verifierOutput]).toEqual(["10", "failed", 0, "I for 10"]);
    expect(second!.run).toMatchObject({ name: "inspect/openai/gpt-test/run-1", model: "openai/gpt-test" });
    expect(fromEval.map((r) => (r.ok ? r.file : ""))).toEqual([
      "shell.eval[samples/2_epoch_1.json]",
      "shell.eval[samples/10_epoch_1.json]",
    ]);
  });

  it("reads logs of older layouts: start.json + results.json, or only the journal of an eval still running", async () => {
    const { status, stats, results, ...start } = header;
    const old = writeEval("old.eval", {
      "start.json": strToU8(JSON.stringify(start)),
      "results.json": strToU8(JSON.stringify({ status, stats, results })),
      "samples/2_epoch_1.json": strToU8(JSON.stringify(samples[0])),
    });
    expect(trajectories(await readAll(old))).toEqual(
      trajectories(await readAll(writeJsonLog("old.json", { ...header, samples: [samples[0]] }))),
    );
    const running = writeEval("running.eval", {
      "_journal/start.json": strToU8(JSON.stringify(start)),
      "samples/10_epoch_1.json": strToU8(JSON.stringify(samples[1])),
    });
    const [t] = trajectories(await readAll(running));
    expect([t!.task.id, t!.metadata?.logStatus]).toEqual(["10", "started"]);
  });

  it("a truncated archive is one clear error naming the file", async () => {
    const zip = zipSync(evalParts(header, samples));
    const f = writeEval("cut.eval", zip.subarray(0, Math.floor(zip.length * 0.7)));
    expect(await readAll(f)).toEqual([
      {
        ok: false,
        issue: {
          file: "cut.eval",
          message: "not a readable ZIP archive: no end-of-central-directory record: the archive is truncated or not a ZIP file",
        },
      },
    ]);
  });

  it("a sample that is not JSON, or whose data is damaged, is an error naming file and entry; the others import", async () => {
    const bad = writeEval("bad.eval", {
      ...evalParts(header, samples),
      "samples/10_epoch_1.json": strToU8("Traceback (most recent call last):\n  oops"),
    });
    const records = await readAll(bad);
    expect(issues(records)).toEqual([
      { file: "bad.eval[samples/10_epoch_1.json]", line: 1, message: expect.stringMatching(/^invalid JSON/) },
    ]);
    expect(trajectories(records).map((t) => t.task.id)).toEqual(["2"]);

    const zip = zipSync(evalParts(header, samples), { level: 0 });
    const at = Buffer.from(zip).indexOf('"Running it."');
    zip[at + 1] = "X".charCodeAt(0);
    const damaged = await readAll(writeEval("damaged.eval", zip));
    expect(issues(damaged)).toEqual([
      {
        file: "damaged.eval[samples/10_epoch_1.json]",
        message: "cannot read this entry: its content does not match its size or checksum: the archive is damaged",
      },
    ]);
    expect(trajectories(damaged).map((t) => t.task.id)).toEqual(["2"]);
  });

  it("refuses an entry that would unpack beyond the cap, before inflating anything", async () => {
    const huge = withStatedSize(zipSync(evalParts(header, samples)), "samples/2_epoch_1.json", 0xfffffff0);
    expect(await readAll(writeEval("bomb.eval", huge))).toEqual([
      {
        ok: false,
        issue: {
          file: "bomb.eval[samples/2_epoch_1.json]",
          message: "entry unpacks to 4096 MB, more than the 64 MB limit; refusing the archive",
        },
      },
    ]);
    const opened = await openEvalArchive(await fileSource(evalFile, "shell.eval"), { ...EVAL_LIMITS, maxUnpackedBytes: 1000 });
    expect(opened.ok ? "opened" : opened.record).toEqual({
      ok: false,
      issue: {
        file: "shell.eval",
        message: expect.stringMatching(/^the log unpacks to \d+ bytes, more than the 1000 bytes limit; refusing the archive$/),
      },
    });
  });

  it("refuses entry names that climb out of the archive or are absolute", async () => {
    for (const name of ["../samples/1_epoch_1.json", "/etc/header.json", "samples\\1_epoch_1.json"]) {
      const f = writeEval("slip.eval", { ...evalParts(header, samples), [name]: strToU8("{}") });
      const [only, ...rest] = await readAll(f);
      expect(rest).toEqual([]);
      expect(only).toMatchObject({
        ok: false,
        issue: { file: "slip.eval", message: expect.stringContaining(`entry ${JSON.stringify(name)} has an unsafe name`) },
      });
    }
  });

  it("says what is missing when the archive is a ZIP but not an Inspect log", async () => {
    const f = writeEval("other.eval", { "readme.txt": strToU8("hello") });
    expect(issues(await readAll(f))).toEqual([
      { file: "other.eval", message: expect.stringMatching(/^not an Inspect log: the archive has no header\.json/) },
    ]);
  });
});

describeShared("Inspect .eval zipped from the shared JSON logs", () => {
  it.each(["2025-05-12T20-27-36-04-00_browser.json", "log_read_sample.json", "log_tool_call_error.json"])(
    "%s: the .eval form imports to the same trajectories",
    async (name) => {
      const source = fixture("inspect-eval", name);
      const log: unknown = JSON.parse(nullNonFinite(fs.readFileSync(source, "utf8")));
      if (!isRecord(log) || !Array.isArray(log.samples)) throw new Error(`${name}: not an Inspect log with samples`);
      const list = log.samples.filter(isRecord);
      const { samples: _samples, ...rest } = log;
      const f = writeEval(name.replace(/\.json$/, ".eval"), evalParts(rest, list));
      const fromEval = trajectories(await readAll(f));
      expect(fromEval.length).toBeGreaterThan(0);
      expect(fromEval).toEqual(trajectories(await readAll(source)));
    },
  );
});
