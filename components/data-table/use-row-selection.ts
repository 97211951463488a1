"use client";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { z } from "zod";

// Row selection that survives paging, filtering and reloads within the tab: ids live in a module-level store,
// mirrored to sessionStorage (up to PERSIST_MAX ids; larger "select all" sets are kept for the session only).
const PERSIST_MAX = 20_000;

export interface Selection {
  ids: ReadonlySet<string>;
  /** Set when the selection came from "select all matching": the view (query string) it was taken from. */
  allMatching: { view: string; total: number } | null;
}

const storedSchema = z.object({ ids: z.array(z.string()), allMatching: z.object({ view: z.string(), total: z.number() }).nullable() });
const EMPTY: Selection = { ids: new Set(), allMatching: null };
const stores = new Map<string, { value: Selection; listeners: Set<() => void> }>();

function storeFor(scope: string) {
  let s = stores.get(scope);
  if (!s) {
    let value = EMPTY;
    if (typeof window !== "undefined") {
      try {
        const parsed = storedSchema.safeParse(JSON.parse(window.sessionStorage.getItem(`selection:${scope}`) ?? "null"));
        if (parsed.success) value = { ids: new Set(parsed.data.ids), allMatching: parsed.data.allMatching };
      } catch {
        // unreadable: start empty
      }
    }
    s = { value, listeners: new Set() };
    stores.set(scope, s);
  }
  return s;
}

function setSelection(scope: string, value: Selection) {
  const s = storeFor(scope);
  s.value = value;
  try {
    if (value.ids.size === 0) window.sessionStorage.removeItem(`selection:${scope}`);
    else if (value.ids.size <= PERSIST_MAX)
      window.sessionStorage.setItem(`selection:${scope}`, JSON.stringify({ ids: [...value.ids], allMatching: value.allMatching }));
  } catch {
    // storage full: keep it in memory only
  }
  s.listeners.forEach((l) => l());
}

export function useRowSelection(scope: string) {
  const subscribe = useCallback(
    (cb: () => void) => {
      const s = storeFor(scope);
      s.listeners.add(cb);
      return () => s.listeners.delete(cb);
    },
    [scope],
  );
  const selection = useSyncExternalStore(
    subscribe,
    () => storeFor(scope).value,
    () => EMPTY,
  );
  return useMemo(
    () => ({
      selection,
      setMany(ids: string[], on: boolean) {
        // Read the store, not this render's snapshot: several updates can happen before the next render.
        const next = new Set(storeFor(scope).value.ids);
        for (const id of ids)
          if (on) next.add(id);
          else next.delete(id);
        setSelection(scope, { ids: next, allMatching: null });
      },
      selectAll(ids: string[], view: string, total: number) {
        setSelection(scope, { ids: new Set(ids), allMatching: { view, total } });
      },
      clear() {
        setSelection(scope, EMPTY);
      },
    }),
    [scope, selection],
  );
}
