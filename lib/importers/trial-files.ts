// Shared by the ATIF, Harbor, asciicast and Terminal-Bench 1 importers: reading the side files of a trial (bounded,
// never throwing), timestamps, task ids derived from paths, and outcome from a reward.
import fs from "node:fs";
import path from "node:path";
import type { Outcome } from "../domain/trajectory.ts";
import type { ImportRecord } from "./types.ts";
import { fileSource } from "./source.ts";
import { isRecord, issue, readJson } from "./util.ts";

/** Verifier output and logs are cut to this many bytes (the end is kept: test summaries are printed last). */
export const SIDE_TEXT_BYTES = 64 * 1024;

/** 1 (or more) → passed, anything lower → failed: Terminal-Bench rewards are 0/1, partial credit is not a pass. */
export function outcomeFromReward(reward: number | undefined | null): Outcome {
  if (reward === undefined || reward === null || !Number.isFinite(reward)) return "unknown";
  return reward >= 1 ? "passed" : "failed";
}

export function exists(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function listDir(p: string): string[] {
  try {
    return fs.readdirSync(p).sort();
  } catch {
    return [];
  }
}

/** Parse a JSON file on disk; any failure (missing, unreadable, syntax) becomes an issue naming `display`. */
export async function readJsonFile(
  abs: string,
  display: string,
): Promise<{ ok: true; value: unknown } | { ok: false; record: ImportRecord }> {
  try {
    const doc = await readJson(await fileSource(abs, display));
    return doc.ok ? { ok: true, value: doc.value } : doc;
  } catch (e) {
    return { ok: false, record: issue(display, `cannot read file: ${e instanceof Error ? e.message : String(e)}`) };
  }
}

/** The last `maxBytes` of a text file, marked when cut; undefined when the file is absent or unreadable. */
export async function readTextTail(abs: string, maxBytes = SIDE_TEXT_BYTES): Promise<string | undefined> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(abs, "r");
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    // A cut may land inside a multi-byte character: drop the partial first line instead of showing U+FFFD.
    let text = buf.toString("utf8");
    if (size > maxBytes) text = `[… ${size - length} bytes omitted …]\n${text.slice(text.indexOf("\n") + 1)}`;
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** `reward`, or the only named reward, of a Harbor rewards object ({"reward": 1} by convention). */
export function pickReward(rewards: Record<string, unknown>): number | undefined {
  if (typeof rewards.reward === "number") return rewards.reward;
  const values = Object.values(rewards);
  return values.length === 1 && typeof values[0] === "number" ? values[0] : undefined;
}

/**
 * The reward of a Harbor trial (or of one step of a multi-step trial): the one `rewards` from result.json states,
 * else the one the task's test script wrote to `<dir>/verifier/reward.txt` (or reward.json).
 */
export async function verifierReward(
  dir: string,
  display: string,
  rewards: Record<string, unknown> | null | undefined,
): Promise<{ reward?: number; record?: ImportRecord }> {
  const stated = rewards ? pickReward(rewards) : undefined;
  if (stated !== undefined) return { reward: stated };
  const txt = path.join(dir, "verifier", "reward.txt");
  if (exists(txt)) {
    const text = (await readTextTail(txt, 256))?.trim() ?? "";
    const value = Number(text);
    return text && Number.isFinite(value)
      ? { reward: value }
      : { record: issue(`${display}/verifier/reward.txt`, `expected a number, got ${JSON.stringify(text.slice(0, 40))}`) };
  }
  const json = path.join(dir, "verifier", "reward.json");
  if (!exists(json)) return {};
  const parsed = await readJsonFile(json, `${display}/verifier/reward.json`);
  if (!parsed.ok) return { record: parsed.record };
  const value = isRecord(parsed.value) ? pickReward(parsed.value) : typeof parsed.value === "number" ? parsed.value : undefined;
  return value !== undefined ? { reward: value } : { record: issue(`${display}/verifier/reward.json`, 'expected {"reward": number}') };
}

const GENERIC_NAMES = new Set([
  "trajectory",
  "recording",
  "agent",
  "sessions",
  "session",
  "logs",
  "agent-logs",
  "cast",
  "tests",
  "verifier",
  "",
]);

/**
 * Task id of last resort, from where a file sits: its name without format suffixes, or — for generic names like
 * `agent/trajectory.json` — the enclosing trial folder, without Harbor's `__<7-char id>` trial suffix.
 */
export function taskIdFromPath(file: string): string {
  let name = path.basename(file).replace(/\.gz$/i, "");
  name = name
    .replace(/\.(json|jsonl|cast)$/i, "")
    .replace(/\.cont-\d+$/i, "")
    .replace(/\.summarization-\d+-[\w-]+$/i, "");
  name = name.replace(/[._-]?trajectory$/i, "");
  let dir = path.dirname(file);
  while (GENERIC_NAMES.has(name.toLowerCase()) && dir !== path.dirname(dir)) {
    name = path.basename(dir);
    dir = path.dirname(dir);
  }
  return name.replace(/__[A-Za-z0-9]{7}$/, "") || "unknown";
}
