/**
 * Inferred fork points: recovery attempts whose source did not state their parent are recognised by the prefix they
 * share with another trajectory of the same task. Deterministic: the same input always gives the same links.
 *
 * Rules:
 *  1. An attempt whose first k steps are marked copied context (ATIF `is_copied_context`) forks from the earliest
 *     trajectory whose first k step hashes are identical, at step k-1.
 *  2. Otherwise two trajectories sharing their first L ≥ MIN_SHARED steps, where the shared prefix contains an
 *     error (a failure state — what recovery training forks from), are siblings: the earliest one is the parent and
 *     the later one an attempt forked at step L-1. Identical exploration without an error is not enough: unrelated
 *     rollouts of the same task often start with the same commands.
 *  "Earliest" orders by startedAt, then id, so the parent is never younger than its attempt and no cycle can form.
 */
export interface ForkCandidateStep {
  hash: string;
  copied: boolean;
  isError: boolean;
}

export interface ForkCandidate {
  id: string;
  taskId: string;
  /** Sort key: ISO start time (or import time) — earlier sorts first. */
  order: string;
  steps: ForkCandidateStep[];
}

export interface InferredLink {
  attemptId: string;
  parentId: string;
  stepIndex: number;
  sharedSteps: number;
  reason: "copied-context" | "shared-prefix";
}

export const MIN_SHARED = 2;

function lcp(a: ForkCandidateStep[], b: ForkCandidateStep[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i]!.hash === b[i]!.hash) i++;
  return i;
}

const earlier = (a: ForkCandidate, b: ForkCandidate) =>
  a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * @param pool every trajectory that may be a parent or an attempt (same tasks, none already linked as an attempt)
 * @param attemptIds the trajectories that may become attempts (e.g. those imported just now)
 */
export function inferForkLinks(pool: ForkCandidate[], attemptIds: ReadonlySet<string>): InferredLink[] {
  const byTask = new Map<string, ForkCandidate[]>();
  for (const c of pool) {
    const list = byTask.get(c.taskId) ?? [];
    list.push(c);
    byTask.set(c.taskId, list);
  }
  const links: InferredLink[] = [];
  for (const list of byTask.values()) {
    list.sort(earlier);
    // Bucket by the first step's hash so only trajectories that could share a prefix are compared.
    const buckets = new Map<string, ForkCandidate[]>();
    for (const c of list) {
      const h = c.steps[0]?.hash;
      if (h === undefined) continue;
      const b = buckets.get(h) ?? [];
      b.push(c);
      buckets.set(h, b);
    }
    for (const bucket of buckets.values()) {
      if (bucket.length < 2) continue;
      bucket.forEach((attempt, i) => {
        if (!attemptIds.has(attempt.id) || i === 0) return;
        const link = bestParent(attempt, bucket.slice(0, i));
        if (link) links.push(link);
      });
    }
  }
  return links.sort((a, b) => (a.attemptId < b.attemptId ? -1 : 1));
}

function bestParent(attempt: ForkCandidate, earlierOnes: ForkCandidate[]): InferredLink | null {
  const copied = attempt.steps.findIndex((s) => !s.copied);
  const copiedLen = copied === -1 ? attempt.steps.length : copied;
  let best: { parent: ForkCandidate; shared: number } | null = null;
  for (const p of earlierOnes) {
    if (p.steps.length && p.steps[0]!.copied) continue; // a parent is an original rollout, not another copy
    const shared = lcp(attempt.steps, p.steps);
    if (copiedLen > 0) {
      if (shared >= copiedLen && !best) best = { parent: p, shared: copiedLen };
      continue;
    }
    if (shared < MIN_SHARED || shared >= attempt.steps.length) continue;
    if (!attempt.steps.slice(0, shared).some((s) => s.isError)) continue;
    if (!best || shared > best.shared) best = { parent: p, shared };
  }
  if (!best) return null;
  return {
    attemptId: attempt.id,
    parentId: best.parent.id,
    stepIndex: best.shared - 1,
    sharedSteps: best.shared,
    reason: copiedLen > 0 ? "copied-context" : "shared-prefix",
  };
}
