"use client";
import { useEffect, useRef, useState } from "react";
import { Loader2, Search, X } from "lucide-react";
import { cn } from "@/lib/utils";

interface Props {
  id: string;
  value: string;
  /** Called with the new text: "replace" while typing (debounced), "push" on Enter or clear, so Back skips keystrokes. */
  onSearch: (q: string, mode: "push" | "replace") => void;
  pending?: boolean;
  placeholder?: string;
  className?: string;
}

const DEBOUNCE_MS = 350;

/** Full-text search input: searches as you type (debounced), Enter searches at once, "/" focuses it. */
export function SearchBox({ id, value, onSearch, pending, placeholder, className }: Props) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const typedSinceFocus = useRef(false);
  if (value !== seen) {
    // The URL changed under us (back button, a facet click): show what the URL says.
    setSeen(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const t = setTimeout(() => {
      onSearch(text.trim(), typedSinceFocus.current ? "replace" : "push");
      typedSinceFocus.current = true;
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, value, onSearch]);
  return (
    <div className={cn("relative flex items-center", className)} role="search">
      <Search className="pointer-events-none absolute left-2.5 size-4 text-muted-foreground" aria-hidden />
      <input
        id={id}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onFocus={() => (typedSinceFocus.current = false)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onSearch(text.trim(), "push");
          }
        }}
        placeholder={placeholder ?? "Search commands, outputs and reasoning…"}
        aria-label="Search steps"
        aria-keyshortcuts="/"
        className="h-8 w-full rounded-md border bg-background pr-16 pl-8 text-sm outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-search-cancel-button]:hidden"
      />
      <span className="absolute right-2 flex items-center gap-1.5">
        {pending ? <Loader2 className="size-3.5 animate-spin text-muted-foreground" aria-label="Searching" /> : null}
        {text ? (
          <button
            type="button"
            aria-label="Clear search"
            className="rounded p-0.5 text-muted-foreground hover:text-foreground"
            onClick={() => {
              setText("");
              onSearch("", "push");
            }}
          >
            <X className="size-3.5" />
          </button>
        ) : (
          <kbd className="rounded border px-1 font-mono text-[0.65rem] text-muted-foreground">/</kbd>
        )}
      </span>
    </div>
  );
}
