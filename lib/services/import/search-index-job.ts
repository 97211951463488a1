// The search index of an upload's or an API push's trajectories, as a background job: the request answers once its
// trajectories are written and linked, and a worker indexes them (the CLI indexes inline: it is a batch process, not
// a request). Indexing is idempotent and driven by what the index lacks, so a retried or duplicated run does no harm,
// and a search before the worker gets there catches up itself (ensureSearchIndex).
import type { JobKind } from "../../jobs/index.ts";
import { jobRunner } from "../../jobs/index.ts";
import { indexAllMissing, searchIndexLag } from "../../db/repositories/search/index.ts";
import type { ServiceContext } from "../context.ts";

export interface SearchIndexPayload {
  /** How many trajectories the import wrote (for the jobs page; the run indexes whatever is missing). */
  trajectories: number;
}

export const SEARCH_INDEX_JOB: JobKind<SearchIndexPayload> = {
  kind: "search-index",
  maxAttempts: 3,
  async run({ db, signal, progress }) {
    const total = await searchIndexLag(db);
    const indexed = await indexAllMissing(db, { signal, onStep: (n) => progress(n, Math.max(total, n)) });
    return { result: `${indexed} trajectories added to the search index`, progressDone: indexed };
  },
};

export async function queueSearchIndex(ctx: ServiceContext, trajectories: number): Promise<{ jobId: string }> {
  const job = await jobRunner(ctx.db).enqueue(
    SEARCH_INDEX_JOB,
    { trajectories },
    {
      title: `indexing ${trajectories} imported trajector${trajectories === 1 ? "y" : "ies"} for search`,
      createdById: ctx.actor.id || null,
      progressTotal: trajectories,
    },
  );
  return { jobId: job.id };
}
