// The server-side terminal: a headless xterm plus the serialize addon, used for keyframes and for the
// differential test. Server-only: nothing under app/ or components/ imports it (ESLint allows @xterm/headless
// only in this folder); the replay services bind it themselves.
//
// Why keyframes are computed on the server: they are needed for every seek by every viewer and can be stored
// once; computing them in each browser would mean downloading the whole recording before a seek is fast.
import headless from "@xterm/headless";
import serialize from "@xterm/addon-serialize/lib/addon-serialize.js";
import type { EmulatorFactory, TerminalEmulator } from "../../../domain/replay/keyframes.ts";
import { KEYFRAME_SCROLLBACK } from "../../../domain/replay/keyframes.ts";
import { restoreSequence } from "./terminal-state.ts";

const { Terminal } = headless;
const { SerializeAddon } = serialize;
const ALT_PREFIX = "\u001b[?1049h\u001b[H";

/** A headless terminal configured like the keyframe builder's (also used by tests to compare screens). */
export function createHeadlessTerminal(cols: number, rows: number): InstanceType<typeof Terminal> {
  // Scrollback equal to what a keyframe keeps: a restored terminal then has the same scrollback length as the
  // original, so positions that xterm keeps in absolute rows (the saved cursor) line up.
  return new Terminal({ cols, rows, scrollback: KEYFRAME_SCROLLBACK, allowProposedApi: true });
}

/** Keyframe data of a terminal: its screens (serialize addon) followed by the rest of its state. */
export function keyframeData(term: InstanceType<typeof Terminal>, addon: InstanceType<typeof SerializeAddon>, scrollback: number): string {
  const normal = addon.serialize({ scrollback, excludeModes: true, excludeAltBuffer: true });
  let altScreen: string | null = null;
  if (term.buffer.active.type === "alternate") {
    const full = addon.serialize({ scrollback, excludeModes: true });
    if (!full.startsWith(normal + ALT_PREFIX)) throw new Error("serialize addon output changed: cannot separate the alternate screen");
    altScreen = full.slice(normal.length + ALT_PREFIX.length);
  }
  return normal + restoreSequence(term, altScreen);
}

export const createHeadlessEmulator: EmulatorFactory = (cols, rows): TerminalEmulator => {
  const term = createHeadlessTerminal(cols, rows);
  const addon = new SerializeAddon();
  term.loadAddon(addon);
  return {
    write: (data) => new Promise<void>((resolve) => term.write(data, resolve)),
    resize: (c, r) => term.resize(c, r),
    serialize: (scrollback) => keyframeData(term, addon, scrollback),
    dispose: () => term.dispose(),
  };
};
