// The project's own lossless format: JSONL, one trajectory per line (lib/domain/trajectory.ts, docs/native-format.md).
// A .json file holding one trajectory object or an array of them is accepted too.
import { NATIVE_FORMAT } from "../domain/trajectory.ts";
import { sha256 } from "../domain/hash.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { baseName, issue, jsonSyntaxIssue, MAX_LINE_BYTES, normalized, readJson, readLines } from "./util.ts";

/** Apply --run to an unvalidated record (zod validates the result right after). */
function withRun(draft: unknown, options: ReadOptions): unknown {
  if (!options.runName || typeof draft !== "object" || draft === null || Array.isArray(draft)) return draft;
  const run = "run" in draft && typeof draft.run === "object" && draft.run !== null ? draft.run : {};
  return { ...draft, run: { ...run, name: options.runName } };
}

export const nativeImporter: Importer = {
  format: "native",
  label: "ReTerm native JSONL",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (head.includes(`"format":"${NATIVE_FORMAT}"`) || head.includes(`"format": "${NATIVE_FORMAT}"`)) return 1;
    return baseName(source.path).endsWith(".reterm.jsonl") ? 0.9 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const file = source.displayPath;
    if (!source.head.trimStart().startsWith("{") || baseName(source.path).endsWith(".json")) {
      const doc = await readJson(source);
      if (!doc.ok) return yield doc.record;
      const items = Array.isArray(doc.value) ? doc.value : [doc.value];
      for (const [i, item] of items.entries())
        yield normalized(withRun(item, options), "native", Array.isArray(doc.value) ? `${file}[${i}]` : file);
      return;
    }
    let seen = 0;
    for await (const { text, lineNo, tooLong } of readLines(source)) {
      if (!tooLong && !text.trim()) continue;
      seen++;
      if (tooLong) {
        yield issue(file, `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB`, lineNo);
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        yield jsonSyntaxIssue(file, text, e as Error, lineNo - 1);
        continue;
      }
      const rec = normalized(withRun(value, options), "native", file, lineNo);
      // The source line is the content: hashing it avoids serializing the parsed trajectory again.
      if (rec.ok && !options.runName) rec.value.contentHash = sha256(text);
      yield rec;
    }
    if (seen === 0) yield issue(file, "file is empty");
  },
};
