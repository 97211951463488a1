"use client";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { z } from "zod";

// A small localStorage-backed value (column widths, remembered columns), shared by every component using the key.
// Stored values are validated on read: anything unexpected falls back to the default.
const listeners = new Map<string, Set<() => void>>();

export function usePersistedState<T>(key: string, schema: z.ZodType<T>, fallback: T): [T, (next: T | null) => void] {
  const subscribe = useCallback(
    (cb: () => void) => {
      const set = listeners.get(key) ?? new Set();
      set.add(cb);
      listeners.set(key, set);
      return () => set.delete(cb);
    },
    [key],
  );
  const raw = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(key),
    () => null,
  );
  const value = useMemo(() => {
    if (raw === null) return fallback;
    try {
      const parsed = schema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : fallback;
    } catch {
      return fallback;
    }
  }, [raw, schema, fallback]);
  const setValue = useCallback(
    (next: T | null) => {
      try {
        if (next === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // storage full or disabled: the value just is not remembered
      }
      listeners.get(key)?.forEach((l) => l());
    },
    [key],
  );
  return [value, setValue];
}
