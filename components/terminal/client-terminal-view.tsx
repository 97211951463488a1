"use client";
// The live terminal, mounted in the browser only (xterm needs a DOM to measure and draw into). Its code is imported
// statically, so it comes with the page's own scripts: the browser fetches and compiles it beside them from the
// first bytes of the HTML. (It was a dynamic import, which the browser only asked for when this component first
// rendered during hydration — a round trip after the page's scripts, and on a long trajectory's page, behind the
// navigation's prefetches; `@xterm/xterm` 6 imports on the server without touching `window`.)
import { useSyncExternalStore, type ReactNode } from "react";
import { TerminalView, type TerminalViewProps } from "./terminal-view";

const noSubscription = () => () => undefined;
const inBrowser = () => true;
const onServer = () => false;

const pulse = <div className="h-80 animate-pulse rounded-md bg-[#15171c]" role="status" aria-label="Loading terminal" />;

/**
 * `fallback` shows until the component has mounted in the browser (default: a placeholder); `overlay` is rendered
 * beside the live terminal while it is set — the caller positions it over the terminal (the poster, until the
 * terminal has drawn the same moment, so there is no blank frame in between). The terminal keeps its place in the
 * tree either way.
 */
export function ClientTerminalView({ fallback, overlay, ...props }: TerminalViewProps & { fallback?: ReactNode; overlay?: ReactNode }) {
  // False on the server and during hydration (both must render the same); React renders again with true right after.
  const mounted = useSyncExternalStore(noSubscription, inBrowser, onServer);
  return (
    <>
      {mounted ? <TerminalView {...props} /> : (fallback ?? pulse)}
      {mounted ? overlay : null}
    </>
  );
}
