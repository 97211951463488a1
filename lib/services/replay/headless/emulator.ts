// The server-side terminal: a headless xterm, used for keyframes and for the differential test. Server-only:
// nothing under app/ or components/ imports it (ESLint allows @xterm/headless only in this folder); the replay
// services bind it themselves.
//
// Why keyframes are computed on the server: they are needed for every seek by every viewer and can be stored
// once; computing them in each browser would mean downloading the whole recording before a seek is fast.
import headless from "@xterm/headless";
import { KEYFRAME_SCROLLBACK, type EmulatorFactory, type TerminalEmulator } from "../../../domain/replay/keyframes.ts";
import { keyframeData } from "./terminal-state.ts";

const { Terminal } = headless;

/** A headless terminal configured like the keyframe builder's (also used by tests to compare screens). */
export function createHeadlessTerminal(cols: number, rows: number): InstanceType<typeof Terminal> {
  // Scrollback equal to what a keyframe keeps: a restored terminal then has the same scrollback length as the
  // original, so positions that xterm keeps in absolute rows (the saved cursor) line up.
  return new Terminal({ cols, rows, scrollback: KEYFRAME_SCROLLBACK, allowProposedApi: true });
}

export const createHeadlessEmulator: EmulatorFactory = (cols, rows): TerminalEmulator => {
  const term = createHeadlessTerminal(cols, rows);
  return {
    write: (data) => new Promise<void>((resolve) => term.write(data, resolve)),
    resize: (c, r) => term.resize(c, r),
    serialize: (scrollback) => keyframeData(term, scrollback),
    dispose: () => term.dispose(),
  };
};
