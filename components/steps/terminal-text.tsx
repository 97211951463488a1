import { stripAnsi } from "@/lib/domain/ansi";
import { cn } from "@/lib/utils";

const DEFAULT_MAX_CHARS = 20_000;

/**
 * Untrusted terminal output as plain text: escapes stripped, rendered by React (never as HTML), and
 * truncated so a huge output cannot freeze the page. The replay view shows the full coloured output.
 */
export function TerminalText({
  text,
  className,
  testId,
  maxChars = DEFAULT_MAX_CHARS,
}: {
  text: string;
  className?: string;
  testId?: string;
  maxChars?: number;
}) {
  // Strip only what can be shown: a 10 MB output must not be scanned whole to display 20 KB of it.
  const plain = text.length > maxChars * 4 ? stripAnsi(`${text.slice(0, maxChars * 2)}\n${text.slice(-maxChars * 2)}`) : stripAnsi(text);
  const hidden = Math.max(0, text.length > maxChars * 4 ? text.length - maxChars : plain.length - maxChars);
  const truncated = hidden > 0;
  const shown = truncated ? `${plain.slice(0, maxChars / 2)}\n…\n${plain.slice(-maxChars / 2)}` : plain;
  return (
    <pre
      data-testid={testId}
      className={cn(
        "max-h-96 overflow-auto rounded-md bg-terminal p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-100",
        className,
      )}
    >
      {shown}
      {truncated ? <span className="mt-2 block text-zinc-400">[about {hidden.toLocaleString("en-US")} characters hidden]</span> : null}
    </pre>
  );
}
