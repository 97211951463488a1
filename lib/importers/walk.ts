// Expands the paths a user named into import units: directories claimed by a directory importer (Harbor job/trial,
// Terminal-Bench run), else walked recursively; files sniffed by every file importer. Deterministic order.
import fs from "node:fs";
import path from "node:path";
import { detectImporter } from "./registry.ts";
import { dirSource, fileSource } from "./source.ts";
import type { Importer, ImportSource } from "./types.ts";

export type ImportUnit =
  | { kind: "source"; source: ImportSource; importer: Importer }
  /** `explicit`: the user named this file itself (an error), rather than it being found inside a folder (skipped). */
  | { kind: "unrecognised"; displayPath: string; reason: string; explicit: boolean };

const SKIP_NAMES = new Set([".git", "node_modules", ".DS_Store", "__MACOSX"]);

export interface WalkOptions {
  /** Read everything with this importer (CLI --format); files it does not recognise are reported. */
  format?: Importer;
}

/** Walk `inputs` (files or folders). `displayPath`s are relative to each input's parent folder. */
export async function* walkInputs(inputs: string[], options: WalkOptions = {}): AsyncGenerator<ImportUnit> {
  for (const input of inputs) {
    const abs = path.resolve(input);
    if (!fs.existsSync(abs)) {
      yield { kind: "unrecognised", displayPath: input, reason: "no such file or directory", explicit: true };
      continue;
    }
    yield* walk(abs, path.basename(abs), options, new Set(), true);
  }
}

async function* walk(
  abs: string,
  display: string,
  options: WalkOptions,
  claimed: Set<string>,
  explicit = false,
): AsyncGenerator<ImportUnit> {
  if (claimed.has(abs)) return;
  const st = fs.statSync(abs);
  if (st.isDirectory()) {
    const dir = dirSource(abs, display);
    const importer = detectImporter(dir, options.format);
    if (importer) {
      for (const p of importer.claims?.(dir) ?? []) claimed.add(path.resolve(p));
      yield { kind: "source", source: dir, importer };
      // Anything inside that the directory importer did not claim is walked as usual.
      if (!importer.claims) return;
    }
    for (const name of dir.entries) {
      if (SKIP_NAMES.has(name)) continue;
      yield* walk(path.join(abs, name), `${display}/${name}`, options, claimed);
    }
    return;
  }
  if (!st.isFile()) return;
  if (st.size === 0) {
    yield { kind: "unrecognised", displayPath: display, reason: "file is empty", explicit };
    return;
  }
  const source = await fileSource(abs, display);
  const importer = detectImporter(source, options.format);
  if (importer) yield { kind: "source", source, importer };
  else if (source.headError) yield { kind: "unrecognised", displayPath: display, reason: source.headError, explicit: true };
  else if (looksBinary(source.head))
    yield { kind: "unrecognised", displayPath: display, reason: "binary file, not a trajectory format", explicit };
  else
    yield {
      kind: "unrecognised",
      displayPath: display,
      reason: options.format ? `not a ${options.format.format} file` : "format not recognised (use --format to force one)",
      explicit,
    };
}

function looksBinary(head: string): boolean {
  return head.includes("\u0000") || (head.match(/\uFFFD/g)?.length ?? 0) > 8;
}
