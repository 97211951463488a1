// Fuzz: mutated copies of the shared third-party fixtures (truncation, byte flips, invalid UTF-8, deep nesting,
// huge lines, corrupt gzip) go through the real import path — walk + format detection, the importer, and the row
// preparation the writers run (content hash, error detector). Every case must end in records or issues naming the
// file; nothing may throw. Fixed seed, so a failure reproduces; the case that failed is printed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { walkInputs } from "../../lib/importers/walk.ts";
import { readSource } from "../../lib/services/import/import-files.ts";
import { addDetectedErrors, prepareTrajectory } from "../../lib/db/bulk/rows.ts";
import { sqliteCodec } from "../../lib/db/bulk/sqlite-writer.ts";
import { hasSharedFixtures, SHARED_FIXTURES, sharedFixturesSkipReason } from "../helpers/shared-fixtures.ts";

const SEED = 20261201;
const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-fuzz-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function listFixtures(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFixtures(path.join(dir, e.name)) : e.name.endsWith(".md") ? [] : [path.join(dir, e.name)]));
}

type Mutation = (b: Buffer, r: () => number) => Buffer;
const at = (b: Buffer, r: () => number) => Math.floor(r() * Math.max(1, b.length));
const deep = (n: number) => Buffer.from(`"deep": ${"[".repeat(n)}${"]".repeat(n)}, `);

const MUTATIONS: Record<string, Mutation> = {
  truncate: (b, r) => b.subarray(0, at(b, r)),
  flipBytes: (b, r) => {
    const c = Buffer.from(b);
    for (let i = 0, n = 1 + Math.floor(r() * 8); i < n; i++) c[at(c, r)] = Math.floor(r() * 256);
    return c;
  },
  invalidUtf8: (b, r) => {
    const i = at(b, r);
    const bad = [Buffer.from([0xff, 0xfe]), Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80])][
      Math.floor(r() * 4)
    ]!;
    return Buffer.concat([b.subarray(0, i), bad, b.subarray(i)]);
  },
  deepNesting: (b, r) => {
    // After a random "{" so the file usually stays valid JSON, with a value nested 5,000 levels deep.
    const opens = [...b.toString("latin1").matchAll(/\{/g)].map((m) => m.index);
    const i = opens.length ? opens[Math.floor(r() * opens.length)]! + 1 : 0;
    return Buffer.concat([b.subarray(0, i), deep(5000), b.subarray(i)]);
  },
  hugeLine: (b, r) => {
    // A string value of 0.25–2 MB inside a record, or a bare line that long.
    const big = Buffer.alloc(256 * 1024 * (1 + Math.floor(r() * 8)), "x");
    const quotes = [...b.toString("latin1").matchAll(/": "/g)].map((m) => m.index);
    if (quotes.length && r() < 0.7) {
      const i = quotes[Math.floor(r() * quotes.length)]! + 4;
      return Buffer.concat([b.subarray(0, i), big, b.subarray(i)]);
    }
    return Buffer.concat([b, Buffer.from("\n"), big, Buffer.from("\n")]);
  },
  duplicateLines: (b, r) => {
    const lines = b.toString("utf8").split("\n");
    const i = Math.floor(r() * lines.length);
    lines.splice(i, 0, ...lines.slice(i, i + 1 + Math.floor(r() * 3)));
    return Buffer.from(lines.join("\n"));
  },
  corruptGzip: (b, r) => {
    const gz = zlib.gzipSync(b);
    if (r() < 0.5) return gz.subarray(0, 10 + Math.floor(r() * (gz.length - 10)));
    const c = Buffer.from(gz);
    for (let i = 0; i < 3; i++) {
      const j = 10 + Math.floor(r() * (c.length - 10));
      c[j] = c[j]! ^ 0xff;
    }
    return c;
  },
};

interface Outcome {
  records: number;
  issues: number;
  crash?: string;
}

async function runCase(file: string, display: string): Promise<Outcome> {
  const out: Outcome = { records: 0, issues: 0 };
  try {
    for await (const unit of walkInputs([file])) {
      if (unit.kind === "unrecognised") {
        out.issues++;
        continue;
      }
      for await (const rec of readSource(unit.importer, unit.source, {})) {
        if (!rec.ok) {
          out.issues++;
          // Every answer names where it comes from, and none carries a stack trace.
          if (!rec.issue.file.startsWith(display.split("/")[0]!) || /\n\s+at /.test(rec.issue.message))
            return { ...out, crash: `issue without its file or with a stack: ${JSON.stringify(rec.issue).slice(0, 300)}` };
          continue;
        }
        out.records++;
        // What the writers do with each record before it is stored.
        const prepared = prepareTrajectory(rec.value, sqliteCodec, null);
        addDetectedErrors(prepared, sqliteCodec);
      }
    }
  } catch (e) {
    out.crash = `${(e as Error).name}: ${(e as Error).message}`.slice(0, 300);
  }
  return out;
}

describe.skipIf(!hasSharedFixtures)("import fuzz (mutated shared fixtures)", () => {
  it(`${CASES} mutated files (seed ${SEED}): every one is answered, none crashes`, { timeout: 300_000 }, async () => {
    const r = prng(SEED);
    const fixtures = listFixtures(SHARED_FIXTURES);
    const originals = new Map(fixtures.map((f) => [f, fs.readFileSync(f)]));
    const names = Object.keys(MUTATIONS);
    const crashes: string[] = [];
    const perMutation: Record<string, number> = {};
    let records = 0,
      issues = 0;
    for (let i = 0; i < CASES; i++) {
      const fixture = fixtures[Math.floor(r() * fixtures.length)]!;
      // The 3 MB recording is slow to mutate thousands of times: it gets its share of cases rarely.
      if (originals.get(fixture)!.length > 1024 * 1024 && r() < 0.9) {
        i--;
        continue;
      }
      const mutation = names[Math.floor(r() * names.length)]!;
      const bytes = MUTATIONS[mutation]!(originals.get(fixture)!, r);
      const base = path.basename(fixture) + (mutation === "corruptGzip" ? ".gz" : "");
      const dir = path.join(tmp, `case-${i}`);
      fs.mkdirSync(dir);
      const file = path.join(dir, base);
      fs.writeFileSync(file, bytes);
      const o = await runCase(file, base);
      fs.rmSync(dir, { recursive: true, force: true });
      perMutation[mutation] = (perMutation[mutation] ?? 0) + 1;
      records += o.records;
      issues += o.issues;
      if (o.crash) crashes.push(`case ${i} (${mutation} of ${path.relative(SHARED_FIXTURES, fixture)}): ${o.crash}`);
    }
    console.log(
      `[fuzz] seed ${SEED}: ${CASES} cases (${Object.entries(perMutation)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}), ${records} trajectories read, ${issues} issues reported, ${crashes.length} crashes`,
    );
    expect(crashes).toEqual([]);
    // The mutations must actually exercise both paths: some files still read, many rejected with reasons.
    expect(records).toBeGreaterThan(CASES / 10);
    expect(issues).toBeGreaterThan(CASES / 10);
  });

  it("a record nested 5,000 levels deep is one clear issue naming file and field", async () => {
    const file = path.join(tmp, "deep.jsonl");
    fs.writeFileSync(
      file,
      `{"format": "reterm.trajectory.v1", "task": {"benchmark": "b", "id": "t"}, "run": {"name": "r"}, "outcome": "passed", "steps": [], "metadata": {${deep(5000).toString().slice(0, -2)}}}\n`,
    );
    const o: unknown[] = [];
    for await (const unit of walkInputs([file]))
      if (unit.kind === "source") for await (const rec of readSource(unit.importer, unit.source, {})) o.push(rec);
    expect(o).toEqual([
      {
        ok: false,
        issue: expect.objectContaining({
          file: "deep.jsonl",
          line: 1,
          message: "the record is nested more than 1000 levels deep and was not read",
          path: expect.stringMatching(/^metadata\.deep\[0\]/),
        }),
      },
    ]);
  });
});

describe.skipIf(hasSharedFixtures)("import fuzz", () => {
  it.skip(sharedFixturesSkipReason, () => undefined);
});
