// Test helper: read a file with one importer and collect what it yields.
import { expect } from "vitest";
import type { TrajectoryInput } from "../domain/trajectory.ts";
import { fileSource } from "./source.ts";
import type { Importer, ImportRecord, ReadOptions, ImportIssue } from "./types.ts";

export function importerReader(importer: Importer) {
  async function readAll(file: string, options: ReadOptions = {}): Promise<ImportRecord[]> {
    const out: ImportRecord[] = [];
    for await (const r of importer.read(await fileSource(file), options)) out.push(r);
    return out;
  }
  /** The file's only trajectory; fails the test when the file yields anything else. */
  async function readOne(file: string, options: ReadOptions = {}): Promise<TrajectoryInput> {
    const records = await readAll(file, options);
    expect(records.map((r) => (r.ok ? "ok" : r.issue.message))).toEqual(["ok"]);
    const [first] = records;
    if (!first?.ok) throw new Error("unreachable");
    expect(first.value.sourceFormat).toBe(importer.format);
    return first.value.trajectory;
  }
  return { readAll, readOne };
}

/** Warnings kept with a trajectory, in the shape standalone warning issues have (severity "warning"). */
export function attachedWarnings(r: ImportRecord): ImportIssue[] {
  return r.ok ? (r.value.warnings ?? []).map((w) => ({ ...w, severity: "warning" as const })) : [];
}
