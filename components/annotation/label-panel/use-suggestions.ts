"use client";
// The pending suggestions of a trajectory: the first page came with the HTML, the rest arrives in ranges (scrolling
// the list, or the step cursor passing the last one loaded), so a long trajectory's hundreds are not all in the page.
import { useCallback, useRef, useState } from "react";
import { suggestionApi, type SuggestionView } from "../label-api";

/** Suggestions fetched per range after the first page. */
export const SUGGESTION_PAGE = 100;

export function useSuggestions(
  trajectoryId: string,
  first: { suggestions: SuggestionView[]; more: boolean; total: number },
  onError: (text: string) => void,
) {
  const [list, setList] = useState(first.suggestions);
  const [more, setMore] = useState(first.more);
  const [total, setTotal] = useState(first.total);
  const loading = useRef(false);

  /** Fetch the next range, or ranges until one reaches step `upTo`. */
  const loadMore = useCallback(
    async (upTo = -1) => {
      if (loading.current || !more) return;
      loading.current = true;
      try {
        let after = list.at(-1)?.key;
        for (;;) {
          const r = await suggestionApi.page(trajectoryId, after, SUGGESTION_PAGE);
          setList((l) => {
            const have = new Set(l.map((x) => x.key));
            return [...l, ...r.suggestions.filter((x) => !have.has(x.key))];
          });
          setMore(r.more);
          setTotal(r.total);
          const last = r.suggestions.at(-1);
          if (!r.more || !last || (last.stepStart ?? -1) >= upTo) break;
          after = last.key;
        }
      } catch (e) {
        onError(`Loading more suggestions: ${(e as Error).message}`);
      } finally {
        loading.current = false;
      }
    },
    [list, more, trajectoryId, onError],
  );

  const lastLoadedStep = list.at(-1)?.stepStart ?? -1;
  return {
    list,
    more,
    total,
    loadMore,
    /** Past the last loaded suggestion while more exist, the focused one is not known yet. */
    covers: (step: number) => !more || (list.length > 0 && lastLoadedStep >= step),
    /** Make sure the range holding `step` is loaded. */
    cover: (step: number) => {
      if (more && (list.length === 0 || lastLoadedStep < step)) void loadMore(step);
    },
    removed(key: string, cursor: number) {
      setList((l) => l.filter((x) => x.key !== key));
      setTotal((n) => Math.max(0, n - 1));
      // The last one loaded is decided: the next range (its key still marks the place).
      if (list.at(-1)?.key === key) void loadMore(cursor);
    },
    async reload() {
      const fresh = await suggestionApi.page(trajectoryId, undefined, Math.max(list.length, SUGGESTION_PAGE)).catch(() => null);
      if (!fresh) return;
      setList(fresh.suggestions);
      setMore(fresh.more);
      setTotal(fresh.total);
    },
  };
}
