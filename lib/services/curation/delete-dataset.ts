// Delete a dataset: its versions, items, export jobs and the exported files on disk. Names the revision the curator
// read, so a dataset someone else just changed is not deleted from under them (409).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { deleteDataset as deleteDatasetRow } from "../../db/repositories/datasets/datasets.ts";
import { listAllExportJobFiles } from "../../db/repositories/datasets/export-jobs.ts";
import { AppError } from "../../errors.ts";
import { exportRunningFor, removeExportFolders } from "./export-jobs.ts";
import { requireDataset } from "./manage-datasets.ts";
import { DATASET_NAME } from "./rules.ts";

export const deleteDatasetInputSchema = z.object({ name: DATASET_NAME, expectedRevision: z.number().int().nonnegative() });

export async function deleteDataset(
  ctx: ServiceContext,
  input: z.input<typeof deleteDatasetInputSchema>,
): Promise<{ filesRemoved: number }> {
  authorize(ctx, "dataset:write");
  const e = deleteDatasetInputSchema.parse(input);
  const d = await requireDataset(ctx, e.name);
  const jobs = await listAllExportJobFiles(ctx.db, d.id);
  if (await exportRunningFor(ctx.db, jobs))
    throw new AppError("CONFLICT", `an export of "${d.name}" is queued or still being written; delete the dataset when it has finished`);
  if (!(await deleteDatasetRow(ctx.db, d.id, e.expectedRevision)))
    throw new AppError("CONFLICT", `dataset "${d.name}" changed since you loaded it; reload and try again`);
  // Rows first, then files: a failure in between leaves orphan files (harmless), never rows pointing at missing files.
  await removeExportFolders(jobs);
  const filesRemoved = jobs.filter((j) => j.filePath).length;
  await recordAudit(ctx, {
    action: "dataset.delete",
    targetType: "dataset",
    targetId: d.name,
    details: { versions: d.latest?.version ?? 0, frozen: d.frozenCount, exportFilesRemoved: filesRemoved },
  });
  return { filesRemoved };
}
