// Keyframes as both kinds of source store them (recordings in RecordingChunk.keyframe, synthesized sessions in
// SynthesizedKeyframe): built once on the worker under a budget, kept only when of the current keyframe version,
// validated when read back. The sources differ only in where the rows live and which chunks they replay.
import { KEYFRAME_VERSION } from "../../domain/replay/keyframes.ts";
import { keyframeSchema, type Keyframe, type ReplayChunk } from "../../domain/replay/recording.ts";
import { AppError } from "../../errors.ts";
import { stopGuard, type SourceDeps } from "./source.ts";

export interface KeyframeStore {
  /** The source in a log line: "recording <id>", "synthesized <id>". */
  name: string;
  /** The first stored keyframe's JSON, if any. */
  first(): Promise<string | null>;
  /** Every chunk in order; `guard` throws once replay work is being stopped. */
  chunks(guard: () => void): AsyncIterable<ReplayChunk>;
  /** Store built keyframes (seq = chunk position). */
  save(keyframes: { seq: number; keyframe: string }[]): Promise<unknown>;
}

async function storedAreCurrent(store: KeyframeStore): Promise<boolean> {
  const first = await store.first();
  if (!first) return false;
  try {
    return keyframeSchema.safeParse(JSON.parse(first)).data?.version === KEYFRAME_VERSION;
  } catch {
    return false;
  }
}

/**
 * Build and store the keyframes unless current ones are stored. Returns why they were given up (over budget: the
 * session is then replayed from the start), or null.
 */
export async function buildStoredKeyframes(
  deps: SourceDeps,
  size: { cols: number; rows: number },
  store: KeyframeStore,
): Promise<string | null> {
  if (await storedAreCurrent(store)) return null;
  const guard = stopGuard();
  const built = await deps.buildKeyframes(store.chunks(guard), size);
  guard();
  if (built.overBudget) {
    console.warn(`[replay] ${store.name}: keyframes given up (${built.overBudget}); it is replayed from the start`);
    return built.overBudget;
  }
  await store.save(built.keyframes.map((k) => ({ seq: k.seq, keyframe: JSON.stringify(k.keyframe) })));
  return null;
}

/** A stored keyframe read back; one that does not validate is reported with `where` (never replayed as garbage). */
export function parseStoredKeyframe(json: string, where: string): Keyframe {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = null;
  }
  const parsed = keyframeSchema.safeParse(value);
  if (!parsed.success)
    throw new AppError("UNPROCESSABLE", `${where}: stored keyframe is invalid (${parsed.error.issues[0]?.message ?? "not JSON"})`);
  return parsed.data;
}
