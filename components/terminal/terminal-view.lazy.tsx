"use client";
// xterm touches `window` when imported, so the view is loaded in the browser only. The import starts when this
// module is evaluated in the browser — before hydration, in parallel with the rest of the page's scripts — rather
// than when the component first renders after hydration (which is when next/dynamic would request it).
import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import type { TerminalViewProps } from "./terminal-view";

type View = ComponentType<TerminalViewProps>;
let loading: Promise<View> | null = null;

export function loadTerminalView(): Promise<View> {
  loading ??= import("./terminal-view").then((m) => m.TerminalView);
  return loading;
}

if (typeof window !== "undefined") void loadTerminalView();

const pulse = <div className="h-80 animate-pulse rounded-md bg-[#15171c]" role="status" aria-label="Loading terminal" />;

/**
 * `fallback` shows until the xterm bundle has loaded (default: a placeholder); `overlay` is rendered beside the live
 * terminal while it is set — the caller positions it over the terminal (the poster, until the terminal has drawn the
 * same moment, so there is no blank frame in between). The terminal keeps its place in the tree either way.
 */
export function TerminalViewLazy({ fallback, overlay, ...props }: TerminalViewProps & { fallback?: ReactNode; overlay?: ReactNode }) {
  // Always null on the first render (server and hydration must agree), then the module as soon as it is there.
  const [View, setView] = useState<View | null>(null);
  useEffect(() => {
    let live = true;
    void loadTerminalView().then((v) => live && setView(() => v));
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      {View ? <View {...props} /> : (fallback ?? pulse)}
      {View ? overlay : null}
    </>
  );
}
