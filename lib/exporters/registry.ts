// One writer per export format; the chat formats take the export's options. Sidecar files written beside the data.
import type { ExportFormat } from "../domain/curation/types.ts";
import { resolveOptions, type ExportOptions } from "./chat/options.ts";
import { createOpenAiWriter } from "./openai.ts";
import { createTrlWriter } from "./trl.ts";
import { createShareGptWriter } from "./sharegpt.ts";
import { createAxolotlWriter } from "./axolotl.ts";
import { createNativeWriter } from "./native.ts";
import { labelsCsvWriter, labelsJsonlWriter } from "./labels.ts";
import type { ExportItem, RowWriter } from "./types.ts";

export function createWriter(format: ExportFormat, options: ExportOptions = resolveOptions(format, undefined)): RowWriter {
  switch (format) {
    case "openai":
      return createOpenAiWriter(options);
    case "trl":
      return createTrlWriter(options);
    case "sharegpt":
      return createShareGptWriter(options);
    case "axolotl":
      return createAxolotlWriter(options);
    case "native":
      return createNativeWriter();
    case "labels-csv":
      return labelsCsvWriter;
    case "labels-jsonl":
      return labelsJsonlWriter;
  }
}

/** The sidecar files a format writes beside its data (besides the README.md card). */
export type SidecarKind = "provenance" | "dataset-info";
export const SIDECARS: Partial<Record<ExportFormat, SidecarKind[]>> = {
  openai: ["provenance"],
  trl: ["provenance"],
  sharegpt: ["provenance", "dataset-info"],
  axolotl: ["provenance"],
};

/** The provenance sidecar's file name for a data file. */
export const provenanceFile = (dataFile: string) => `${dataFile.replace(/\.jsonl$/, "")}.provenance.jsonl`;
export const DATASET_INFO_FILE = "dataset_info.json";

/**
 * The provenance sidecar of a format with no room for it in its rows: one line per row the data file holds, in the
 * same order (an item the format drops has no line), each the row's provenance object.
 */
export function createProvenanceWriter(inner: RowWriter): RowWriter {
  return {
    format: `${inner.format}-provenance`,
    extension: "jsonl",
    contentType: "application/x-ndjson",
    lines: (e: ExportItem) => (inner.lines(e).length ? [JSON.stringify(e.provenance) + "\n"] : []),
  };
}
