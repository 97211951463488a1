// What tests/integration/export-storage.test.ts imports only after it has set RETERM_STORAGE (a module loaded
// earlier would read the environment before it is set).
export { generateTrajectories } from "../../lib/generator/generate.ts";
export { normalized } from "../../lib/importers/util.ts";
export { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
export { createDataset } from "../../lib/services/curation/manage-datasets.ts";
export { deleteDataset } from "../../lib/services/curation/delete-dataset.ts";
export { getExportJob, listDatasetExports, openExportFile, startExportJob } from "../../lib/services/curation/export-jobs.ts";
export { openExport } from "../../lib/services/curation/export-dataset.ts";
export { getDatasetDetail } from "../../lib/services/curation/view-datasets.ts";
export { fileStorage } from "../../lib/storage/index.ts";
export { checkStorage } from "../../lib/services/system/check-health.ts";
export { startJobWorker } from "../../lib/services/jobs/start-worker.ts";
