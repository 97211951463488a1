// Annotation data for e2e/annotation.spec.ts, loaded by e2e/serve.ts into its temporary database: two annotators
// (alice, bob) with API tokens whose secrets the spec knows (test-only, in a throwaway database), their labels on four
// failed trajectories (Cohen's κ = 0.636), a two-annotator queue over them, a small queue for the keyboard-only run
// one label of the local user's for the concurrent-edit test, and a queue of failed trajectories with fork points.
import type { Db } from "../../lib/db/client.ts";
import type { Actor } from "../../lib/domain/authz.ts";
import { ensureUser } from "../../lib/db/repositories/accounts/users.ts";
import { createApiToken } from "../../lib/db/repositories/accounts/tokens.ts";
import { sha256 } from "../../lib/domain/hash.ts";
import { createLabel } from "../../lib/services/annotation/save-label.ts";
import { createQueue } from "../../lib/services/annotation/manage-queues.ts";

export const E2E_TOKENS = { alice: "rt_e2e_alice_token_for_tests", bob: "rt_e2e_bob_token_for_tests" } as const;
/** alice vs bob on steps 1–2: po = 3/4, pe = 5/16 → κ = 0.636. */
export const E2E_PAIRS: [string, string][] = [
  ["hang", "hang"],
  ["timeout", "hang"],
  ["command-error", "command-error"],
  ["timeout", "timeout"],
];
export const E2E_KAPPA = "0.636";
export const E2E_FORK_QUEUE = "e2e-forks";

export async function seedAnnotationE2E(db: Db, admin: Actor): Promise<void> {
  const adminCtx = { db, actor: admin };
  const alice = { db, actor: await ensureUser(db, "alice", "annotator") };
  const bob = { db, actor: await ensureUser(db, "bob", "annotator") };
  await createApiToken(db, alice.actor.id, "e2e", sha256(E2E_TOKENS.alice));
  await createApiToken(db, bob.actor.id, "e2e", sha256(E2E_TOKENS.bob));
  const failed = await db.trajectory.findMany({
    where: { parentId: null, outcome: "failed", stepCount: { gte: 4 } },
    orderBy: { id: "asc" },
    take: 5,
    select: { id: true, taskId: true },
  });
  for (let i = 0; i < E2E_PAIRS.length; i++) {
    await createLabel(alice, { trajectory: failed[i]!.id, schema: "error-category", value: E2E_PAIRS[i]![0], target: { steps: [1, 2] } });
    await createLabel(bob, { trajectory: failed[i]!.id, schema: "error-category", value: E2E_PAIRS[i]![1], target: { steps: [1, 2] } });
  }
  await createQueue(adminCtx, {
    name: "e2e-agreement",
    filter: "annotated=anyone",
    schemas: ["error-category"],
    labelsPerItem: 2,
    assignees: ["alice", "bob"],
  });
  // The local user's own label (version 1) that two tabs will try to change at once.
  await createLabel(adminCtx, { trajectory: failed[4]!.id, schema: "error-category", value: "hang", target: { steps: [1, 2] } });
  // The smallest task with at least two trajectories: a short queue to finish with the keyboard.
  const byTask = await db.trajectory.groupBy({ by: ["taskId"], _count: { _all: true } });
  const small = byTask
    .filter((g) => g._count._all >= 2)
    .sort((a, b) => a._count._all - b._count._all || a.taskId.localeCompare(b.taskId))[0]!;
  await createQueue(adminCtx, {
    name: "e2e-keyboard",
    filter: `taskId=${small.taskId}`,
    schemas: ["error-category"],
    labelsPerItem: 1,
    assignees: [admin.name],
  });
  // Failed trajectories with fork points, for two annotators labelling at once (e2e/annotator-queue.spec.ts).
  await createQueue(adminCtx, {
    name: E2E_FORK_QUEUE,
    filter: "outcome=failed&forks=yes",
    schemas: ["error-category"],
    labelsPerItem: 1,
    assignees: ["alice", "bob"],
  });
}
