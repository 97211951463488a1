// Every kind of background job the app runs. A worker (`npm run worker`, or `npm start` with jobs on) runs them all.
import type { JobKind } from "../../jobs/index.ts";
import { EXPORT_JOB } from "../curation/export-job-run.ts";
import { FROZEN_EXPORTS_JOB } from "../curation/frozen-exports.ts";
import { REPLAY_LAYOUTS_JOB } from "../replay/index.ts";
import { SEARCH_INDEX_JOB } from "../import/search-index-job.ts";
import { RETENTION_JOB } from "./retention.ts";

export const JOB_KINDS: readonly JobKind<never>[] = [
  EXPORT_JOB,
  FROZEN_EXPORTS_JOB,
  REPLAY_LAYOUTS_JOB,
  SEARCH_INDEX_JOB,
  RETENTION_JOB,
] as JobKind<never>[];
