// The schema the detector's suggestions are values of: error-category, while it is active and labels step ranges.
import type { Db } from "../../../db/client.ts";
import { findLabelSchema } from "../../../db/repositories/annotation/schemas.ts";
import type { LabelSchemaView } from "../../../domain/annotation/label-schema.ts";

export const ERROR_SCHEMA_KEY = "error-category";

export async function detectorSchema(db: Db): Promise<LabelSchemaView | null> {
  const s = await findLabelSchema(db, ERROR_SCHEMA_KEY);
  return s && s.active && s.targets.includes("step_range") ? s : null;
}
