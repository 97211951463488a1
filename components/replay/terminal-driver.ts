// Brings one terminal to any point of a session: incremental writes when moving forward within loaded data,
// otherwise reset + nearest keyframe + the events after it (asciinema's seek, minus the replay-from-start).
// Chunks are fetched in ranges and kept in a small LRU, so memory stays bounded however long the session is; the
// keyframes that came with them are kept too (a few dozen), so a seek into a range seen before needs no request.
// Requests to move are coalesced: while one sync runs, only the latest target is kept.
import type { TerminalHandle } from "@/components/terminal/terminal-handle";
import {
  chunkIndexAt,
  clampEventData,
  countEventsUpTo,
  parseResize,
  type Keyframe,
  type ReplayEvent,
  type ReplayIndex,
  type ReplayRange,
} from "@/lib/domain/replay/recording";

export type RangeFetcher = (fromMs: number, toMs: number, keyframe: boolean) => Promise<ReplayRange>;

/**
 * Events kept in memory (characters); older chunks are dropped first. 64 chunks: forward playback needs two, and
 * with a keyframe at every full chunk a seek fetches one; a chunk's event arrays cost about as much heap as its text.
 */
const MAX_CACHED_CHARS = 4 * 1024 * 1024;
/** Keyframes kept (≈20–30 KB each); the oldest used is dropped first. */
const MAX_CACHED_KEYFRAMES = 48;
/** A seek is answered from memory when a kept keyframe and the chunks after it are at most this many chunks back. */
const LOCAL_SEEK_CHUNKS = 3;
/** After a seek, how long nothing else is asked for before the next chunk is fetched (prefetchSoon). */
const PREFETCH_AFTER_SEEK_MS = 300;

interface Position {
  chunk: number;
  /** Events of `chunk` already written. */
  event: number;
  ms: number;
}

export class TerminalDriver {
  private term: TerminalHandle | null = null;
  private readonly cache = new Map<number, { events: ReplayEvent[]; chars: number }>();
  private cachedChars = 0;
  private pos: Position | null = null;
  private target: number | null = null;
  private running: Promise<void> | null = null;
  private prefetching = new Set<number>();
  /** Keyframes by the chunk they start (chunk 0 needs none: the empty terminal). */
  private readonly keyframes = new Map<number, Keyframe>();
  /** True while waiting for data the next frame needs. */
  stalled = false;
  lastError: string | null = null;

  constructor(
    readonly index: ReplayIndex,
    private readonly fetchRange: RangeFetcher,
    private readonly onSynced: (ms: number) => void = () => undefined,
  ) {}

  attach(term: TerminalHandle | null): void {
    this.term = term;
    this.pos = null;
    // Detached (the view unmounted, the reader left): a prefetch still waiting out its delay is for nobody.
    if (!term) this.cancelPrefetchSoon();
  }

  get attached(): boolean {
    return this.term !== null;
  }

  /** Time the terminal currently shows (null before the first sync). */
  get shownMs(): number | null {
    return this.pos?.ms ?? null;
  }

  /** Show the session at `ms`. Resolves when the terminal shows it (or a later target superseded it). */
  show(ms: number): Promise<void> {
    this.cancelPrefetchSoon();
    this.target = Math.max(0, Math.min(ms, this.index.durationMs));
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.target !== null && this.term) {
      const t = this.target;
      this.target = null;
      try {
        await this.syncTo(this.term, t);
        this.lastError = null;
      } catch (e) {
        this.lastError = e instanceof Error ? e.message : String(e);
        this.pos = null;
      }
      this.onSynced(t);
    }
  }

  private store(range: ReplayRange): void {
    const k = range.keyframe;
    if (k && !this.keyframes.has(k.seq)) {
      this.keyframes.set(k.seq, k);
      if (this.keyframes.size > MAX_CACHED_KEYFRAMES) this.keyframes.delete(this.keyframes.keys().next().value!);
    }
    for (const c of range.chunks) {
      if (this.cache.has(c.seq)) continue;
      const chars = c.events.reduce((n, e) => n + e[2].length, 0);
      this.cache.set(c.seq, { events: c.events, chars });
      this.cachedChars += chars;
    }
    for (const [seq, v] of this.cache) {
      if (this.cachedChars <= MAX_CACHED_CHARS || this.cache.size <= 2) break;
      if (this.pos && (seq === this.pos.chunk || seq === this.pos.chunk + 1)) continue;
      this.cache.delete(seq);
      this.cachedChars -= v.chars;
    }
  }

  private events(seq: number): ReplayEvent[] | undefined {
    const hit = this.cache.get(seq);
    if (hit) {
      this.cache.delete(seq);
      this.cache.set(seq, hit);
    }
    return hit?.events;
  }

  private early: { t: number; range: Promise<ReplayRange> } | null = null;

  /**
   * Start fetching what showing `t` will need before the terminal exists (the xterm bundle is still loading),
   * so the first frame waits for the slower of the two instead of both in turn. A later target (a seek asked
   * before the terminal exists) replaces the earlier one: the terminal will show only the latest.
   */
  prepare(t: number): void {
    if (this.pos || this.early?.t === t) return;
    const range = this.fetchRange(t, t, true);
    // A replaced fetch is never awaited: its failure is nobody's error.
    range.catch(() => undefined);
    this.early = { t, range };
  }

  private takeEarly(t: number): Promise<ReplayRange> | null {
    const e = this.early;
    this.early = null;
    return e && e.t === t ? e.range : null;
  }

  private async syncTo(term: TerminalHandle, t: number): Promise<void> {
    const chunks = this.index.chunks;
    if (!chunks.length) {
      if (!this.pos) term.reset(this.index.cols, this.index.rows);
      this.pos = { chunk: 0, event: 0, ms: t };
      return;
    }
    const c = chunkIndexAt(chunks, t);
    const pos = this.pos;
    if (pos && pos.ms <= t && c - pos.chunk <= 1) {
      if (c > pos.chunk && !this.cache.has(c)) await this.load(chunks[c]!.startMs, false);
      if (this.cache.has(pos.chunk) && this.cache.has(c)) {
        await this.writeForward(term, pos, c, t);
        this.prefetch(c + 1);
        return;
      }
    }
    const local = this.localStart(c);
    if (local) {
      await this.rebuild(term, local.seq, local.keyframe, c, t);
      return;
    }
    this.stalled = true;
    let range: ReplayRange;
    try {
      range = await (this.takeEarly(t) ?? this.fetchRange(t, t, true));
    } finally {
      this.stalled = false;
    }
    this.store(range);
    const fetched = new Map(range.chunks.map((ch) => [ch.seq, ch.events]));
    await this.rebuild(term, range.chunks[0]?.seq ?? 0, range.keyframe, c, t, (seq) => fetched.get(seq) ?? this.events(seq));
  }

  /** Reset, restore the keyframe at chunk `from` (none for chunk 0) and write the events up to t, in one go. */
  private async rebuild(
    term: TerminalHandle,
    from: number,
    keyframe: Keyframe | null,
    c: number,
    t: number,
    get?: (seq: number) => ReplayEvent[] | undefined,
  ): Promise<void> {
    term.reset(keyframe?.cols ?? this.index.cols, keyframe?.rows ?? this.index.rows);
    // The keyframe's bytes and the events after it are queued together: xterm parses them in one pass.
    const restored = keyframe ? term.restore(keyframe) : null;
    await this.writeForward(term, { chunk: from, event: 0, ms: t }, c, t, get);
    await restored;
    this.prefetchSoon(c + 1);
  }

  /** A kept keyframe at most LOCAL_SEEK_CHUNKS before chunk c with every chunk from it to c in memory, or null. */
  private localStart(c: number): { seq: number; keyframe: Keyframe | null } | null {
    for (let k = c; k >= 0 && c - k <= LOCAL_SEEK_CHUNKS && this.cache.has(k); k--) {
      if (k === 0) return { seq: 0, keyframe: null };
      const keyframe = this.keyframes.get(k);
      if (keyframe) {
        // Most recently used last, so the oldest goes first.
        this.keyframes.delete(k);
        this.keyframes.set(k, keyframe);
        return { seq: k, keyframe };
      }
    }
    return null;
  }

  /** Write events from `from` up to time t in chunk c (from.chunk ≤ c), then record the new position. */
  private async writeForward(
    term: TerminalHandle,
    from: Position,
    c: number,
    t: number,
    get = (seq: number) => this.events(seq),
  ): Promise<void> {
    let buf = "";
    let event = from.event;
    for (let seq = from.chunk; seq <= c; seq++) {
      const events = get(seq);
      if (!events) throw new Error(`chunk ${seq} is not loaded`);
      const end = seq === c ? countEventsUpTo(events, t) : events.length;
      for (let i = seq === from.chunk ? from.event : 0; i < end; i++) {
        const [, code, data] = events[i]!;
        if (code === "o") buf += clampEventData(data);
        else if (code === "r") {
          const size = parseResize(data);
          if (!size) continue;
          if (buf) await term.write(buf);
          buf = "";
          term.resize(size.cols, size.rows);
        }
      }
      event = end;
    }
    if (buf) await term.write(buf);
    this.pos = { chunk: c, event, ms: t };
  }

  private async load(fromMs: number, keyframe: boolean): Promise<void> {
    this.stalled = true;
    try {
      this.store(await this.fetchRange(fromMs, fromMs, keyframe));
    } finally {
      this.stalled = false;
    }
  }

  private everything: Map<number, ReplayEvent[]> | null = null;

  /**
   * Benchmark baseline only (bench/replay.ts): load every chunk, as asciinema-player holds the whole recording,
   * so `showFromStart` can be compared with keyframe seeks on the same data in the same browser.
   */
  async preloadAll(): Promise<number> {
    const all = new Map<number, ReplayEvent[]>();
    let chars = 0;
    while (all.size < this.index.chunks.length) {
      const next = this.index.chunks[all.size]!;
      const r = await this.fetchRange(next.startMs, this.index.durationMs, false);
      for (const c of r.chunks) {
        if (all.has(c.seq)) continue;
        all.set(c.seq, c.events);
        chars += c.events.reduce((n, e) => n + e[2].length, 0);
      }
      if (!r.chunks.some((c) => c.seq >= next.seq)) break;
    }
    this.everything = all;
    return chars;
  }

  /** Benchmark baseline: reset and replay every event from the start up to t (asciinema-player's seek). */
  async showFromStart(t: number): Promise<void> {
    const term = this.term;
    const all = this.everything;
    if (!term || !all) throw new Error("preloadAll() first, with a terminal attached");
    await this.running;
    term.reset(this.index.cols, this.index.rows);
    await this.writeForward(term, { chunk: 0, event: 0, ms: t }, chunkIndexAt(this.index.chunks, t), t, (seq) => all.get(seq));
  }

  private prefetchTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * After a seek the next chunk is fetched only if nothing else was asked for meanwhile: someone scrubbing or
   * stepping through errors seeks again at once, and a prefetch of the chunk after the previous target would reach
   * the server just before the next seek's own request. Playback asks for it without waiting (writeForward's path).
   */
  private prefetchSoon(seq: number): void {
    this.cancelPrefetchSoon();
    this.prefetchTimer = setTimeout(() => {
      this.prefetchTimer = null;
      this.prefetch(seq);
    }, PREFETCH_AFTER_SEEK_MS);
  }

  private cancelPrefetchSoon(): void {
    if (this.prefetchTimer !== null) clearTimeout(this.prefetchTimer);
    this.prefetchTimer = null;
  }

  private prefetch(seq: number): void {
    const info = this.index.chunks[seq];
    if (!info || this.cache.has(seq) || this.prefetching.has(seq)) return;
    this.prefetching.add(seq);
    this.fetchRange(info.startMs, info.startMs, false)
      .then((r) => this.store(r))
      .catch(() => undefined)
      .finally(() => this.prefetching.delete(seq));
  }
}
