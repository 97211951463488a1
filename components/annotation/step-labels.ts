"use client";
// Step-range labels shown on the replay's timeline and step list. The label panel publishes the labels it
// holds (already blind-filtered by the server) here whenever they change, so a saved label shows at once without
// reloading the replay (a router.refresh would re-fetch the replay manifest and restart the player).
import { useSyncExternalStore } from "react";

export interface StepLabel {
  start: number;
  end: number;
  value: string;
  schemaKey: string;
}

const byTrajectory = new Map<string, StepLabel[]>();
const listeners = new Set<() => void>();
const NONE: StepLabel[] = [];

export function stepLabelsOf(
  labels: readonly { targetType: string; stepStart: number | null; stepEnd: number | null; value: string; schemaKey: string }[],
): StepLabel[] {
  return labels
    .filter((l) => l.targetType === "step_range" && l.stepStart !== null)
    .map((l) => ({ start: l.stepStart!, end: l.stepEnd ?? l.stepStart!, value: l.value, schemaKey: l.schemaKey }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.value.localeCompare(b.value));
}

export function publishStepLabels(trajectoryId: string, labels: StepLabel[]): void {
  byTrajectory.set(trajectoryId, labels);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The step-range labels of a trajectory as the label panel last published them. */
export function useStepLabels(trajectoryId: string | undefined): StepLabel[] {
  return useSyncExternalStore(
    subscribe,
    () => (trajectoryId ? (byTrajectory.get(trajectoryId) ?? NONE) : NONE),
    () => NONE,
  );
}

/** Labels covering one step, distinct by value. */
export function labelsAt(labels: StepLabel[], step: number): string[] {
  return [...new Set(labels.filter((l) => l.start <= step && step <= l.end).map((l) => l.value))];
}
