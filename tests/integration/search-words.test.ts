// PostgreSQL keeps each indexed trajectory's set of words (step_search_doc."words") to narrow phrases and words that
// must share a step. It must hold exactly the lexemes of the trajectory's step rows, whichever way the index was
// written: an import's catch-up, a full rebuild, or the migration that back-filled it for existing databases.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { reindexSearch } from "../../lib/db/repositories/search/index.ts";

const pg = PROVIDERS.find((p) => p.provider === "postgresql")!;
const MIGRATION = path.join(import.meta.dirname, "../../prisma/postgres/migrations/20261205220000_step_search_words/migration.sql");

describe(`a trajectory's words on ${pg.title}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (pg.skip) return;
    t = await createTestDatabase("postgresql");
    await seedDemo(t.ctx, { count: 40, seed: 11 });
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** Docs whose words differ from the distinct lexemes of their step rows, and how many docs there are. */
  async function mismatches(): Promise<{ wrong: number; docs: number }> {
    const [r] = await t.db.$queryRawUnsafe<{ wrong: bigint; docs: bigint }[]>(`
      SELECT COUNT(*) FILTER (WHERE d."words" IS DISTINCT FROM COALESCE(
        (SELECT array_to_tsvector(array_agg(DISTINCT w)) FROM "step_search" s, unnest(tsvector_to_array(s."tsv")) w
          WHERE s."trajectory_id" = d."trajectory_id"), ''::tsvector)) AS "wrong",
        COUNT(*) AS "docs"
      FROM "step_search_doc" d`);
    return { wrong: Number(r!.wrong), docs: Number(r!.docs) };
  }

  it.skipIf(pg.skip)("holds exactly its steps' lexemes after an import, a rebuild and the back-fill", async () => {
    expect(await mismatches()).toEqual({ wrong: 0, docs: 40 });
    // Words are plain lexemes without positions (what the narrowing query needs, at a fraction of the size).
    const [sample] = await t.db.$queryRawUnsafe<{ words: string }[]>(`SELECT "words"::text AS "words" FROM "step_search_doc" LIMIT 1`);
    expect(sample!.words).toMatch(/^'[^']+'( '[^']+')+$/);

    await reindexSearch(t.db);
    expect(await mismatches()).toEqual({ wrong: 0, docs: 40 });

    // The migration's back-fill, run on emptied words, writes the same sets.
    await t.db.$executeRawUnsafe(`UPDATE "step_search_doc" SET "words" = ''::tsvector`);
    expect((await mismatches()).wrong).toBe(40);
    const backfill = /UPDATE "step_search_doc"[\s\S]*?;/.exec(fs.readFileSync(MIGRATION, "utf8"))![0];
    await t.db.$executeRawUnsafe(backfill);
    expect(await mismatches()).toEqual({ wrong: 0, docs: 40 });
  });
});
