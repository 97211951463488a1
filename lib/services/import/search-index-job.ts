// The search index of an upload's or an API push's trajectories, as a background job: the request answers once its
// trajectories are written and linked, and a worker indexes them (the CLI indexes inline: it is a batch process, not
// a request). Indexing is idempotent and driven by what the index lacks, so a retried or duplicated run does no harm,
// and a search before the worker gets there catches up itself (ensureSearchIndex).
import type { JobKind } from "../../jobs/index.ts";
import { jobRunner } from "../../jobs/index.ts";
import { indexMissingAfter, searchIndexLag, type IndexCursor } from "../../db/repositories/search/index.ts";
import type { ServiceContext } from "../context.ts";

export interface SearchIndexPayload {
  /** How many trajectories the import wrote (for the jobs page; the run indexes whatever is missing). */
  trajectories: number;
}

const STEP = 1000;

export const SEARCH_INDEX_JOB: JobKind<SearchIndexPayload> = {
  kind: "search-index",
  maxAttempts: 3,
  async run({ db, signal, progress }) {
    const total = await searchIndexLag(db);
    let indexed = 0;
    let cursor: IndexCursor | null = null;
    do {
      signal.throwIfAborted();
      const step = await indexMissingAfter(db, STEP, cursor);
      indexed += step.indexed;
      cursor = step.next;
      progress(indexed, Math.max(total, indexed));
    } while (cursor);
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
