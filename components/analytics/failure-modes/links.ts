import type { FailureModeFilter } from "@/lib/validation/failure-modes-params";

export { stepHref } from "@/lib/validation/search-params";

/** The trajectory table filtered to a mode, with the filters the table shares with this page. */
export function modeTableHref(modeId: string, f: FailureModeFilter): string {
  const p = new URLSearchParams();
  p.append("mode", modeId);
  for (const v of f.runId) p.append("runId", v);
  for (const v of f.model) p.append("model", v);
  for (const v of f.taskId) p.append("taskId", v);
  for (const v of f.category) p.append("category", v);
  return `/trajectories?${p}`;
}

/** The annotation page's new-queue form, pre-filled with the mode's table filter: "label from here". */
export function modeQueueHref(modeId: string, f: FailureModeFilter): string {
  return `/annotation?${new URLSearchParams({ filter: modeTableHref(modeId, f).slice("/trajectories?".length) })}`;
}

export const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(digits)}%`);
export const day = (iso: string) => iso.slice(0, 10);
