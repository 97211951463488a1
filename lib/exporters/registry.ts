// One writer per export format.
import type { ExportFormat } from "../domain/curation/types.ts";
import { openAiWriter } from "./openai.ts";
import { shareGptWriter } from "./sharegpt.ts";
import { createNativeWriter } from "./native.ts";
import { labelsCsvWriter, labelsJsonlWriter } from "./labels.ts";
import type { RowWriter } from "./types.ts";

export function createWriter(format: ExportFormat): RowWriter {
  switch (format) {
    case "openai": return openAiWriter;
    case "sharegpt": return shareGptWriter;
    case "native": return createNativeWriter();
    case "labels-csv": return labelsCsvWriter;
    case "labels-jsonl": return labelsJsonlWriter;
  }
}
