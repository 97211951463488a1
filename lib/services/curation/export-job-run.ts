// The export job: a worker (any machine) writes the files into a scratch folder of its own, puts them into the file
// storage under "<export id>/<run id>/", and the export row names them only when the run completes while still owning
// the job — so a run that was taken over (its worker stalled and another took the job) never becomes the download,
// and the files of a run that did not complete are removed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findExportJob, updateExportJob } from "../../db/repositories/datasets/export-jobs.ts";
import type { JobKind } from "../../jobs/index.ts";
import { fileStorage } from "../../storage/index.ts";
import { getJobContext } from "../job-context.ts";
import { openExport, writeExportFiles, type ExportInput } from "./export-dataset.ts";
import { sweepExports } from "./export-retention.ts";

export interface ExportJobPayload {
  exportId: string;
  input: ExportInput;
}

const runPrefix = (id: string, runId: string) => `${id}/${runId}/`;
const scratchFolder = (runId: string) => path.join(os.tmpdir(), "reterm-export-work", runId);
const PROGRESS_EVERY = 2_000;

export const EXPORT_JOB: JobKind<ExportJobPayload> = {
  kind: "export",
  maxAttempts: 3,
  async run({ db, payload, runId, createdById, signal, progress }) {
    const row = await findExportJob(db, payload.exportId);
    // The dataset was deleted, or the row expired, while the job waited: nothing to write.
    if (!row || row.status !== "running") return { result: `nothing to do: the export is ${row ? row.status : "gone"}` };
    const ctx = await getJobContext(db, createdById);
    const opened = await openExport(ctx, payload.input, { audit: false });
    const folder = scratchFolder(runId);
    try {
      fs.mkdirSync(folder, { recursive: true });
      let last = 0;
      const { bytes } = await writeExportFiles(opened, path.join(folder, opened.filename), (done) => {
        signal.throwIfAborted(); // taken over or stopping: stop writing
        progress(done, opened.total);
        if (done - last < PROGRESS_EVERY) return;
        last = done;
        void updateExportJob(db, payload.exportId, { rowsWritten: done }).catch(() => undefined);
      });
      // Every file (data, card, sidecars) is stored before the export says succeeded: a download never finds half.
      for (const name of await fs.promises.readdir(folder)) {
        signal.throwIfAborted();
        await fileStorage().putFile(`${runPrefix(payload.exportId, runId)}${name}`, path.join(folder, name));
      }
      return {
        result: `${opened.total.toLocaleString("en-US")} rows, ${bytes.toLocaleString("en-US")} bytes`,
        progressDone: opened.total,
        effect: (tx) =>
          updateExportJob(tx, payload.exportId, {
            status: "succeeded",
            rowsWritten: opened.total,
            bytesWritten: bytes,
            filePath: `${runPrefix(payload.exportId, runId)}${opened.filename}`,
            finished: true,
          }),
        // This export replaces older ones of the same version and format: their files go now.
        afterCommit: () => sweepExports(db),
      };
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  },
  onFailed: (payload, error, tx) => updateExportJob(tx, payload.exportId, { status: "failed", error, finished: true }),
  discardRun: (payload, runId) => fileStorage().removePrefix(runPrefix(payload.exportId, runId)),
};
