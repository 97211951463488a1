// Keyframe build cost: whole-state keyframes (lib/services/replay/headless: own screen serializer + terminal state)
// against the previous keyframes (@xterm/addon-serialize alone) on the same recordings in the same run — the shared
// fixtures' largest cast (third-party, read from ../shared) and a generated session with a scroll-region status line,
// editors and pagers. Prints build time, keyframe bytes and the ratios.
//   nice -n 5 npx tsx bench/keyframes.ts [--runs=3]
import fs from "node:fs";
import headless from "@xterm/headless";
import serialize from "@xterm/addon-serialize/lib/addon-serialize.js";
import { buildKeyframes, KEYFRAME_SCROLLBACK, type EmulatorFactory } from "../lib/domain/replay/keyframes.ts";
import type { ReplayEvent } from "../lib/domain/replay/recording.ts";
import { chunkEvents } from "../lib/services/replay/headless/differential.ts";
import { createHeadlessEmulator } from "../lib/services/replay/headless/emulator.ts";
import { generateSession } from "../lib/services/replay/headless/session-corpus.ts";
import { fixture, hasSharedFixtures } from "../tests/helpers/shared-fixtures.ts";

const runs = Number(/--runs=(\d+)/.exec(process.argv.join(" "))?.[1] ?? 3);

// The previous keyframes: the serialize addon's output only (what was stored before this change).
const addonOnly: EmulatorFactory = (cols, rows) => {
  const term = new headless.Terminal({ cols, rows, scrollback: KEYFRAME_SCROLLBACK, allowProposedApi: true });
  const addon = new serialize.SerializeAddon();
  term.loadAddon(addon);
  return {
    write: (d) => new Promise<void>((r) => term.write(d, r)),
    resize: (c, r) => term.resize(c, r),
    serialize: (scrollback) => addon.serialize({ scrollback }),
    dispose: () => term.dispose(),
  };
};

function readCast(file: string): { cols: number; rows: number; events: ReplayEvent[] } {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const header = JSON.parse(lines[0]!) as { term?: { cols: number; rows: number }; width?: number; height?: number; version: number };
  const events: ReplayEvent[] = [];
  let t = 0;
  for (const l of lines.slice(1)) {
    try {
      const v = JSON.parse(l) as [number, string, string];
      t = header.version === 3 ? t + v[0] * 1000 : v[0] * 1000;
      if (v[1] === "o") events.push([Math.round(t), "o", v[2]]);
    } catch {
      /* comments and blank lines */
    }
  }
  return { cols: header.term?.cols ?? header.width ?? 80, rows: header.term?.rows ?? header.height ?? 24, events };
}

async function measure(name: string, rec: { cols: number; rows: number; events: ReplayEvent[] }) {
  const chunks = chunkEvents(rec.events, 64 * 1024);
  const chars = rec.events.reduce((n, e) => n + e[2].length, 0);
  const result: Record<string, { ms: number[]; bytes: number; count: number }> = {};
  for (let r = 0; r < runs; r++) {
    for (const [label, factory] of [
      ["addon-serialize (before)", addonOnly],
      ["whole state (now)", createHeadlessEmulator],
    ] as const) {
      async function* feed() {
        yield* chunks;
      }
      const t0 = performance.now();
      let bytes = 0;
      let count = 0;
      for await (const k of buildKeyframes(feed(), factory, rec)) {
        bytes += k.keyframe.data.length;
        count++;
      }
      const entry = (result[label] ??= { ms: [], bytes, count });
      entry.ms.push(performance.now() - t0);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const before = result["addon-serialize (before)"]!;
  const now = result["whole state (now)"]!;
  console.log(`\n${name}: ${(chars / 1e6).toFixed(1)} MB of output, ${chunks.length} chunks, ${now.count} keyframes`);
  for (const [label, e] of Object.entries(result))
    console.log(
      `  ${label.padEnd(26)} build ${median(e.ms).toFixed(0)} ms (median of ${runs}), keyframes ${(e.bytes / 1e6).toFixed(2)} MB`,
    );
  console.log(
    `  ratio now/before: time ${(median(now.ms) / median(before.ms)).toFixed(2)}×, size ${(now.bytes / before.bytes).toFixed(2)}×`,
  );
}

if (hasSharedFixtures) await measure("shared fixture server__v3-big.cast", readCast(fixture("asciicast", "server__v3-big.cast")));
else console.log("shared fixtures not found: skipping server__v3-big.cast");
const big = generateSession(7, { operations: 30_000 });
await measure(`generated session (${big.cols}x${big.rows}, scroll regions, editors, pagers, progress bars)`, big);
