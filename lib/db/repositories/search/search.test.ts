import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findStepHits,
  ftsMatchExpression,
  indexTrajectoriesForSearch,
  parseSearchQuery,
  removeFromSearchIndex,
  searchBody,
  searchIndexLag,
  searchRows,
  searchTokens,
  tsQueryExpression,
  MAX_TOKEN_LENGTH,
} from "./index.ts";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../../../tests/helpers/test-db.ts";
import { importTrajectories } from "../../../services/import/import-trajectories.ts";
import type { TrajectoryInput } from "../../../domain/trajectory.ts";

const SAMPLE: TrajectoryInput = {
  format: "reterm.trajectory.v1",
  id: "writer-sample",
  task: { benchmark: "tests", id: "writers", name: "Writers" },
  run: { name: "writers" },
  outcome: "passed",
  steps: [
    { source: "user", message: "Peel the fruit." },
    { source: "agent", action: "cat fruit.txt", observation: "\u001b[33mkumquat\u001b[0m\n" },
  ],
};

describe("search tokens", () => {
  it("lowercases letters and digits and splits at punctuation like a terminal user reads it", () => {
    expect(searchTokens("ModuleNotFoundError: No module named 'numpy'")).toEqual(["modulenotfounderror", "no", "module", "named", "numpy"]);
    expect(searchTokens("cargo build --release && ./target/wc-lite")).toEqual(["cargo", "build", "release", "target", "wc", "lite"]);
    expect(searchTokens("Größe café 测试")).toEqual(["größe", "café", "测试"]);
    expect(searchTokens(`x ${"a".repeat(MAX_TOKEN_LENGTH + 1)} y`)).toEqual(["x", "y"]);
  });

  it("indexes the ANSI-stripped text of command, output, reasoning and message", () => {
    const body = searchBody({
      action: "make",
      observation: "\u001b[1;31mer\u001b[0mror: \u001b]0;title\u0007bad\r\n",
      reasoning: "Think",
      message: null,
    });
    expect(body).toBe("make error bad think");
  });

  it("keeps the head and tail of very long outputs", () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`);
    const body = searchBody({ observation: words.join(" ") }).split(" ");
    expect(body).toHaveLength(10_000);
    expect(body[0]).toBe("w0");
    expect(body.at(-1)).toBe("w19999");
    expect(body).not.toContain("w9000");
  });

  it("indexes an output of megabytes (hundreds of thousands of tokens) without overflowing the stack", () => {
    const body = searchBody({ observation: "line of output from a long build\r\n".repeat(90_000) }).split(" ");
    expect(body).toHaveLength(10_000);
    expect(body.slice(0, 3)).toEqual(["line", "of", "output"]);
    expect(body.at(-1)).toBe("build");
  });

  it("skips steps without text and keeps step indexes", () => {
    expect(searchRows([{ message: "hi" }, { action: "" }, { index: 7, observation: "ok" }])).toEqual([
      { index: 0, body: "hi" },
      { index: 7, body: "ok" },
    ]);
  });
});

describe("query parsing", () => {
  it("turns words into AND terms, quotes and punctuated words into phrases, and word* into a prefix", () => {
    expect(parseSearchQuery('pip "no module" src/main.rs segm*')).toEqual({
      terms: [
        { tokens: ["pip"], prefix: false },
        { tokens: ["no", "module"], prefix: false },
        { tokens: ["src", "main", "rs"], prefix: false },
        { tokens: ["segm"], prefix: true },
      ],
    });
  });

  it("returns null when nothing is searchable and ignores one-letter prefixes", () => {
    expect(parseSearchQuery("  !!! -- ''")).toBeNull();
    expect(parseSearchQuery("a*")).toEqual({ terms: [{ tokens: ["a"], prefix: false }] });
  });

  it("writes the same query for FTS5 and for PostgreSQL tsquery", () => {
    const s = parseSearchQuery('"No module" pip* error')!;
    expect(ftsMatchExpression(s)).toBe('"no module" AND "pip"* AND "error"');
    expect(tsQueryExpression(s)).toBe("('no' <-> 'module') & ('pip':*) & ('error')");
  });

  it("cannot be escaped out of: quotes and operators in the input never reach the query text", () => {
    const s = parseSearchQuery(`"a" OR b') ; DROP TABLE x; -- NEAR(c d) ^e`)!;
    expect(ftsMatchExpression(s)).toMatch(/^("[a-z0-9 ]+"\*? AND )*"[a-z0-9 ]+"\*?$/);
    expect(tsQueryExpression(s)).not.toMatch(/;|--|\bOR\b/);
  });
});

describe.each(PROVIDERS)("index writer on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await importTrajectories(t.ctx, [{ ok: true, value: { trajectory: SAMPLE, sourceFormat: "native" }, file: "sample.jsonl" }], {
      origin: "seed",
    });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("indexes a trajectory once, however often it is asked to, so it can be found", async () => {
    const { id } = await t.db.trajectory.findUniqueOrThrow({ where: { externalId: "writer-sample" }, select: { id: true } });
    await removeFromSearchIndex(t.db, id);
    const s = parseSearchQuery("kumquat")!;
    expect(await findStepHits(t.db, s, { limit: 5 })).toEqual([]);
    expect(await searchIndexLag(t.db)).toBe(1);
    expect(await indexTrajectoriesForSearch(t.db, [{ trajectoryId: id, steps: SAMPLE.steps }])).toBe(1);
    expect(await indexTrajectoriesForSearch(t.db, [{ trajectoryId: id, steps: SAMPLE.steps }])).toBe(0);
    expect(await findStepHits(t.db, s, { limit: 5 })).toEqual([expect.objectContaining({ trajectoryId: id, stepIndex: 1 })]);
    expect(await searchIndexLag(t.db)).toBe(0);
  });
});
