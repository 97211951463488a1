"use client";
import { useEffect, useState } from "react";

/**
 * The value of a promise the server streams after the page (React Flight sends a prop's promise when it settles), and
 * whether it is the current one: until a new promise settles, the previous value stays shown, so a navigation neither
 * waits for it nor blanks what the previous page showed. `undefined` until the first settles. A rejection is thrown
 * while rendering, to the nearest error boundary, as an awaited one would have been.
 */
export function useStreamedValue<T>(promise: PromiseLike<T>): { value: T | undefined; current: boolean } {
  const [settled, setSettled] = useState<{ from: PromiseLike<T> | null; value: T | undefined; error?: { reason: unknown } }>({
    from: null,
    value: undefined,
  });
  useEffect(() => {
    let live = true;
    // then(onFulfilled, onRejected) only: Flight's streamed values are thenables, not full Promises.
    promise.then(
      (value) => live && setSettled({ from: promise, value }),
      (reason: unknown) => live && setSettled((s) => ({ from: promise, value: s.value, error: { reason } })),
    );
    return () => {
      live = false;
    };
  }, [promise]);
  if (settled.error && settled.from === promise) throw settled.error.reason;
  return { value: settled.value, current: settled.from === promise };
}
