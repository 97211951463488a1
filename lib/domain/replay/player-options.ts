// Player settings and deep links. URL parameters are tolerant (a bad value is ignored, never an error page);
// the API's strict schemas live with the services.
import { z } from "zod";
import { stepSeekMs } from "./markers.ts";
import type { StepTiming } from "./recording.ts";

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;
export type Speed = (typeof SPEEDS)[number];

/** Idle-time caps offered in the player (ms); null = off. */
export const IDLE_CAPS = [null, 500, 1000, 2000, 5000] as const;
export type IdleCap = (typeof IDLE_CAPS)[number];
export const DEFAULT_IDLE_CAP_MS = 2000;

/** ←/→ seek distance in presentation time; with Shift, ten times that. */
export const SEEK_STEP_MS = 5000;

/** The closest offered cap to a recording's own idle_time_limit. */
export function idleCapFor(limitMs: number | null): IdleCap {
  if (limitMs === null) return DEFAULT_IDLE_CAP_MS;
  let best: number = DEFAULT_IDLE_CAP_MS;
  for (const c of IDLE_CAPS) if (c !== null && Math.abs(c - limitMs) < Math.abs(best - limitMs)) best = c;
  return IDLE_CAPS.find((c) => c === best) ?? DEFAULT_IDLE_CAP_MS;
}

const optionalNonNegative = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().pipe(schema).optional()).catch(undefined);

/** `?step=12` opens at step 12 (after its output); `?t=83.5` at 83.5 s of the recording. */
export const replayLinkSchema = z.object({
  step: optionalNonNegative(z.number().int().nonnegative()),
  t: optionalNonNegative(z.number().nonnegative().max(1e7)),
});
export type ReplayLink = z.infer<typeof replayLinkSchema>;

/** Where a deep link opens, in recording ms; null = the start. A step wins over a time. */
export function deepLinkMs(link: ReplayLink, steps: readonly StepTiming[], durationMs: number): number | null {
  if (link.step !== undefined) return stepSeekMs(steps, link.step);
  if (link.t !== undefined) return Math.min(Math.round(link.t * 1000), durationMs);
  return null;
}

/** Path + query that opens a trajectory at a step or a time (seconds). */
export function replayHref(trajectoryId: string, at: { step: number } | { seconds: number }): string {
  const q = "step" in at ? `step=${at.step}` : `t=${Math.round(at.seconds * 10) / 10}`;
  return `/trajectories/${encodeURIComponent(trajectoryId)}?${q}`;
}

export function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
