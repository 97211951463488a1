"use client";
// Labelling keys, taken before the replay's own (capture phase) while keyboard labelling is on: j/k move the step
// cursor, [ ] set the range ends, schema hotkeys pick a value, s switches schema, Enter submits, u undoes, ? helps;
// a / c / x accept, change or reject the focused suggestion (when there is none, they fall through to hotkeys).
import { useEffect, useRef } from "react";

export interface LabelKeyHandlers {
  move(delta: number): void;
  rangeStart(): void;
  rangeEnd(): void;
  nextSchema(): void;
  pick(key: string): boolean;
  submit(): void;
  undo(): void;
  toggleHelp(): void;
  escape(): void;
  /** Decide on the focused suggestion; false when there is none. */
  suggestion(decision: "accepted" | "changed" | "rejected"): boolean;
}

const SUGGESTION_KEYS = { a: "accepted", c: "changed", x: "rejected" } as const;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest(".xterm")) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useLabelKeys(enabled: boolean, handlers: LabelKeyHandlers): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const h = ref.current;
      let handled = true;
      switch (e.key) {
        case "j":
          h.move(1);
          break;
        case "k":
          h.move(-1);
          break;
        case "[":
          h.rangeStart();
          break;
        case "]":
          h.rangeEnd();
          break;
        case "s":
          h.nextSchema();
          break;
        case "Enter":
          if (e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement) return; // a focused control handles its own Enter
          h.submit();
          break;
        case "u":
          h.undo();
          break;
        case "?":
          h.toggleHelp();
          break;
        case "Escape":
          h.escape();
          break;
        case "a":
        case "c":
        case "x":
          handled = h.suggestion(SUGGESTION_KEYS[e.key]) || h.pick(e.key);
          break;
        default:
          handled = h.pick(e.key.toLowerCase());
      }
      if (handled) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [enabled]);
}
