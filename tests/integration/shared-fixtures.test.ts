// Imports the whole third-party corpus in ../shared/fixtures through the CLI path (walk → detect → read → write) on
// both databases. Counts come from the files themselves (see ../shared/fixtures/PROVENANCE.md): e.g. the OpenAI
// JSONL has 86 rows, the ShareGPT file 300 rows of which 35 repeat earlier ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db";
import { hasSharedFixtures, sharedFixturesSkipReason, SHARED_FIXTURES } from "../helpers/shared-fixtures";
import { importFiles } from "@/lib/services/import/import-files";

describe.skipIf(!hasSharedFixtures).each(PROVIDERS)(
  `shared fixtures on $title${hasSharedFixtures ? "" : ` (${sharedFixturesSkipReason})`}`,
  ({ provider, skip }) => {
    let t: TestDatabase;
    beforeAll(async () => {
      if (!skip) t = await createTestDatabase(provider);
    });
    afterAll(async () => {
      await t?.drop();
    });

    it.skipIf(skip)("detects every file's format and imports it, reporting only real problems", async () => {
      const r = await importFiles(t.ctx, [SHARED_FIXTURES], { origin: "cli" });
      const byFormat: Record<string, number> = {};
      for (const f of r.files) if (f.format) byFormat[f.format] = (byFormat[f.format] ?? 0) + f.imported;
      expect(byFormat).toEqual({
        asciicast: 11, // all 11 casts; the two broken ones keep their readable events and import with warnings
        atif: 2,
        "gemini-cli": 1,
        "harbor-traces": 3,
        inspect: 3,
        "mini-swe-agent": 2,
        openhands: 3,
        "openai-chat": 86,
        sharegpt: 265,
        "swe-agent": 7,
      });
      // PROVENANCE.md is the only file no importer claims.
      expect(r.files.filter((f) => !f.format).map((f) => f.file)).toEqual(["fixtures/PROVENANCE.md"]);
      expect(r.report.duplicates).toBe(35);
      // Harbor's golden ATIF files share the placeholder session id "NORMALIZED_SESSION_ID": the first one keeps the
      // id, the others are reported as id conflicts instead of being silently merged or dropped.
      expect(r.report.errors.map((e) => e.message)).toEqual(
        Array(3).fill(expect.stringMatching(/already imported with different content/)),
      );
      expect(r.report.warnings.map((w) => `${w.file}:${w.line}`)).toEqual([
        "fixtures/asciicast/server__v2-broken.cast:3",
        "fixtures/asciicast/server__v3-invalid-time-1.cast:3",
      ]);
      // The continuation segment is read through its head file, never on its own.
      expect(r.files.find((f) => f.file.endsWith("linear-history.trajectory.cont-1.json"))).toMatchObject({ imported: 0, failed: 0 });

      const again = await importFiles(t.ctx, [SHARED_FIXTURES], { origin: "cli" });
      expect(again.report.imported).toBe(0);
    });
  },
);
