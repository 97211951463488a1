// The bulk writers (COPY text format on PostgreSQL, prepared inserts on SQLite) store exactly what was imported:
// text full of the characters COPY escapes, NULLs next to the literal text "\N", numbers and booleans.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db";
import { generateTrajectories } from "@/lib/generator/generate";
import { importTrajectories, type ImportRecord } from "@/lib/services/import/import-trajectories";

const TRICKY = [
  "tab\there",
  "back\\slash \\N \\t \\\\",
  "crlf\r\nnext\rcr",
  "\\N",
  "ünïcödé ✓ 🚀 \u001b[31mred\u001b[0m",
  "trailing\\",
  "\t\n\\",
];

describe.each(PROVIDERS)("bulk write round trip on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("stores escaped characters, NULLs and literal \\N text exactly", async () => {
    const [base] = [...generateTrajectories({ count: 1, seed: 7, recordingRate: 0 })];
    const traj = structuredClone(base!);
    traj.id = "roundtrip-1";
    traj.steps = TRICKY.map((text, i) => ({
      source: "agent" as const,
      action: text,
      observation: i % 2 ? text : undefined,
      reasoning: `r${i}\t${text}`,
      exitCode: i % 3 ? i : undefined,
    }));
    traj.verifierOutput = TRICKY.join("|");
    async function* records(): AsyncGenerator<ImportRecord> {
      yield { ok: true, value: { trajectory: traj, sourceFormat: "native" }, file: "roundtrip.jsonl" };
    }
    const report = await importTrajectories(t.ctx, records(), { origin: "cli", indexSearch: false });
    expect(report).toMatchObject({ imported: 1, failed: 0 });
    const stored = await t.db.trajectory.findUniqueOrThrow({
      where: { externalId: "roundtrip-1" },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(stored.verifierOutput).toBe(TRICKY.join("|"));
    expect(stored.stepCount).toBe(TRICKY.length);
    expect(stored.steps.map((s) => [s.action, s.observation, s.reasoning, s.exitCode])).toEqual(
      TRICKY.map((text, i) => [text, i % 2 ? text : null, `r${i}\t${text}`, i % 3 ? i : null]),
    );
    expect(stored.steps.every((s) => s.isCopiedContext === false)).toBe(true);
  });
});
