"use client";
// One ReplayPlayer per mounted player, its state as React state, and the test/benchmark hook
// (window.__retermPlayers[id]: seek and read state from Playwright and bench/).
import { useEffect, useState, useSyncExternalStore } from "react";
import type { ReplayMarker } from "@/lib/domain/replay/markers";
import type { IdleCap } from "@/lib/domain/replay/player-options";
import type { ReplayIndex } from "@/lib/domain/replay/recording";
import { rangeFetcher } from "./fetch-range";
import { ReplayPlayer, type PlayerState } from "./replay-player";

export interface PlayerProbe {
  seek(ms: number): Promise<void>;
  state(): PlayerState;
  /** Benchmark baseline (bench/replay.ts): whole recording in memory, seek by replaying from the start. */
  baseline: { preloadAll(): Promise<number>; seekFromStart(ms: number): Promise<void> };
  /** Only on the stand-in the poster's script registers: seeks waiting for the player. */
  queued?: { ms: number; resolve: () => void; reject: (e: unknown) => void }[];
}

declare global {
  interface Window {
    __retermPlayers?: Record<string, PlayerProbe>;
  }
}

export function useReplayPlayer(key: string, index: ReplayIndex, markers: ReplayMarker[], opts: { startMs: number; idleCap: IdleCap }) {
  const [player] = useState(() => new ReplayPlayer(index, markers, rangeFetcher(index.trajectoryId), { ...opts, speed: 1 }));
  const state = useSyncExternalStore(player.subscribe, player.getState, player.getState);
  useEffect(() => {
    player.prepare();
    window.__retermPlayers ??= {};
    // Seeks asked of the poster's stand-in (components/terminal/terminal-poster.tsx) before this player existed.
    const queued = window.__retermPlayers[key]?.queued ?? [];
    window.__retermPlayers[key] = {
      seek: (ms) => player.seek(ms),
      state: player.getState,
      baseline: { preloadAll: () => player.driver.preloadAll(), seekFromStart: (ms) => player.driver.showFromStart(ms) },
    };
    for (const q of queued.splice(0)) player.seek(q.ms).then(q.resolve, q.reject);
    return () => {
      if (window.__retermPlayers) delete window.__retermPlayers[key];
      player.dispose();
    };
  }, [key, player]);
  return { player, state };
}
