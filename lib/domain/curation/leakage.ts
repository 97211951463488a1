// Leakage guard: held-out tasks (an evaluation benchmark's, say) must not reach training data. Matching is by
// benchmark + external task id; a held-out entry with benchmark "*" matches that id in any benchmark.

export interface HeldOut {
  benchmark: string;
  externalId: string;
}

export interface TaskRef {
  benchmark: string;
  externalId: string;
}

export function heldOutMatcher(list: HeldOut[]): (t: TaskRef) => boolean {
  const exact = new Set(list.map((h) => `${h.benchmark}\u0000${h.externalId}`));
  const any = new Set(list.filter((h) => h.benchmark === "*").map((h) => h.externalId));
  return (t) => exact.has(`${t.benchmark}\u0000${t.externalId}`) || any.has(t.externalId);
}

/** Held-out tasks present among the given ones, as "benchmark/id", sorted and unique. */
export function findLeaks(tasks: TaskRef[], list: HeldOut[]): string[] {
  const held = heldOutMatcher(list);
  return [...new Set(tasks.filter(held).map((t) => `${t.benchmark}/${t.externalId}`))].sort();
}
