"use client";
// What `u` undoes. In a queue the stack outlives the item: Enter finishes an item and the next one opens (a client
// navigation, so this module stays loaded), and `u` there still withdraws the last submission and brings its item
// back. sessionStorage keeps the stack over a reload of the tab.
import type { LabelView } from "../label-api";

export type UndoEntry =
  | { kind: "created"; label: LabelView; slot?: { queueId: string; slotId: string; finished: boolean } }
  | {
      kind: "updated";
      label: LabelView;
      previous: { value: string; comment: string | null };
      slot?: { queueId: string; slotId: string; finished: boolean };
    }
  | { kind: "decision"; suggestion: string; trajectoryId: string; labelId: string | null };

const stacks = new Map<string, UndoEntry[]>();
const KEY = (scope: string) => `reterm:undo:${scope}`;
const LIMIT = 50;

function load(scope: string): UndoEntry[] {
  let s = stacks.get(scope);
  if (s) return s;
  s = [];
  try {
    const raw = typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(KEY(scope));
    if (raw) s = JSON.parse(raw) as UndoEntry[];
  } catch {
    s = [];
  }
  stacks.set(scope, s);
  return s;
}

function save(scope: string, s: UndoEntry[]): void {
  stacks.set(scope, s);
  try {
    sessionStorage.setItem(KEY(scope), JSON.stringify(s));
  } catch {
    // Private mode or full storage: the stack still lives in memory for this tab.
  }
}

export const undoStore = {
  push(scope: string, e: UndoEntry): void {
    save(scope, [...load(scope), e].slice(-LIMIT));
  },
  peek(scope: string): UndoEntry | undefined {
    return load(scope).at(-1);
  },
  pop(scope: string): void {
    save(scope, load(scope).slice(0, -1));
  },
  size(scope: string): number {
    return load(scope).length;
  },
};
