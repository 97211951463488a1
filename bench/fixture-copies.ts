// The shared fixtures (../shared/fixtures: real third-party trajectories in every format) as benchmark data of
// users' shapes at a measurable size: read by the format importers, then written K times as native JSONL, each copy
// under its own ids. Never copied into the project: read from ../shared when a benchmark runs.
import fs from "node:fs";
import path from "node:path";
import { walkInputs } from "../lib/importers/walk.ts";
import { NATIVE_FORMAT, type TrajectoryInput } from "../lib/domain/trajectory.ts";

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../shared/fixtures");

/** The shared fixtures' trajectories, as the format importers read them (skips with a message when absent). */
export async function fixtureTrajectories(): Promise<TrajectoryInput[]> {
  const dir = FIXTURES_DIR;
  if (!fs.existsSync(dir)) {
    console.log(`the shared fixtures (${dir}) are absent: they sit beside the checkout. Nothing to measure`);
    process.exit(0);
  }
  const out: TrajectoryInput[] = [];
  for await (const unit of walkInputs([dir])) {
    if (unit.kind !== "source") continue;
    for await (const r of unit.importer.read(unit.source, {})) if (r.ok) out.push(r.value.trajectory);
  }
  return out;
}

/**
 * Copy `k` of every fixture trajectory, each under its own id (some fixtures share a session id): `<id>#<ordinal>~k`,
 * with a fork's parent renamed the same way (the first trajectory that had its id), so links stay within the copy.
 */
function copiesOf(base: readonly TrajectoryInput[], k: number): TrajectoryInput[] {
  const firstWithId = new Map<string, number>();
  base.forEach((t, i) => t.id && !firstWithId.has(t.id) && firstWithId.set(t.id, i));
  return base.map((t, i) => {
    const id = `${t.id ?? "fixture"}#${i}~${k}`;
    const parent = t.fork ? firstWithId.get(t.fork.parentId) : undefined;
    return {
      ...t,
      id,
      ...(t.fork
        ? { fork: { ...t.fork, parentId: parent === undefined ? `${t.fork.parentId}~${k}` : `${t.fork.parentId}#${parent}~${k}` } }
        : {}),
    };
  });
}

/** The fixtures written `k` times as native JSONL to `target`. */
export async function writeFixtureCopies(target: string, k: number): Promise<void> {
  const base = await fixtureTrajectories();
  const out = fs.openSync(target, "w");
  for (let c = 0; c < k; c++)
    fs.writeSync(
      out,
      copiesOf(base, c)
        .map((t) => `${JSON.stringify({ ...t, format: NATIVE_FORMAT })}\n`)
        .join(""),
    );
  fs.closeSync(out);
}
