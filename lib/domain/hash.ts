import { hash } from "node:crypto";
import type { StepInput, TrajectoryInput } from "./trajectory.ts";

export function sha256(text: string): string {
  // One-shot hashing: no Hash object per call (import hashes every step of every trajectory).
  return hash("sha256", text, "hex");
}

/** Identity of a step's content, used to find the shared prefix of sibling attempts. */
export function stepContentHash(step: Pick<StepInput, "source" | "action" | "observation" | "message">): string {
  return sha256(JSON.stringify([step.source, step.action ?? "", step.observation ?? "", step.action ? "" : (step.message ?? "")])).slice(
    0,
    32,
  );
}

/** Content-derived identity of a trajectory: the same content re-imported is a no-op. */
export function trajectoryContentHash(t: TrajectoryInput): string {
  return sha256(JSON.stringify(t));
}
