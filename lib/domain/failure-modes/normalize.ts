// Turns a decisive error line into a template shared by every occurrence of the same failure, whatever the path,
// number or name in it, and the concrete values it abstracted (in order), so the most frequent ones can be shown.

export interface NormalizedLine {
  template: string;
  values: string[];
}

/** Longest template kept: a decisive line is one line; anything past this is noise that would split modes. */
export const MAX_TEMPLATE_CHARS = 240;
const MAX_VALUE_CHARS = 120;

// One pass, left to right: alternatives earlier in the list win at the same position (a quoted path is one quoted
// value, a timestamp is not three numbers). Named groups decide the placeholder.
const TOKEN = new RegExp(
  [
    // A Python list of strings (`['make', 'test']`) is one value: its items' quotes would otherwise pair up wrongly.
    String.raw`(?<list>\[(?:'[^'\n]*'|"[^"\n]*")(?:, ?(?:'[^'\n]*'|"[^"\n]*"))*\])`,
    String.raw`(?<quoted>'(?!\[['"])([^'\n]{1,200})'|"([^"\n]{1,200})"|\x60([^\x60\n]{1,200})\x60|‘([^’\n]{1,200})’)`,
    String.raw`(?<url>\b(?:https?|ftp|file)://[^\s'"<>]+)`,
    String.raw`(?<time>\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b)`,
    String.raw`(?<id>\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)`,
    String.raw`(?<hex>\b0x[0-9a-fA-F]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b)`,
    // Absolute or home/dot-relative paths, relative paths with a slash, and bare file names with a known extension.
    String.raw`(?<path>(?:~|\.{1,2})?(?:/[\w.@+%=,\-]+)+/?|(?:~|\.{1,2})/|\b(?=[\w.\-]*[A-Za-z])[\w.\-]+(?:/[\w.@+%=,\-]+)+/?|\b[\w\-]+(?:\.[\w\-]+)*\.(?:py|pyc|pyi|ipynb|js|mjs|cjs|ts|tsx|jsx|c|h|cc|cpp|hpp|rs|go|java|class|jar|rb|sh|txt|json|jsonl|ya?ml|toml|md|csv|tsv|log|o|so|a|ini|cfg|conf|lock|html|css|sql|db|whl|tar|gz|tgz|zip|xml|pem|key)\b)`,
    // A number may carry a short unit (`35ms`, `2GiB`): the unit stays in the template.
    String.raw`(?<n>\b\d+(?:\.\d+)*(?=(?:[a-zA-Z]{1,3})?\b))`,
  ].join("|"),
  "g",
);

/** File-system wording: there a quoted operand is a path even without a slash (`cannot access 'out'`). */
const FILE_CONTEXT =
  /No such file|Permission denied|Is a directory|Not a directory|Read-only file system|cannot (?:access|open|stat|create|remove)|can't open file|File exists|Directory not empty/i;
/** A quoted operand made only of punctuation (`expected ';'`) is part of the message, not a variable. */
const PUNCTUATION_ONLY = /^[^\w\s]{1,3}$/;

function cap(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

/** Replace the variable parts of one line with placeholders; returns the template and the values replaced. */
export function normalizeLine(line: string): NormalizedLine {
  const values: string[] = [];
  const fileish = FILE_CONTEXT.test(line);
  const text = cap(line.trim().replace(/\s+/g, " "), MAX_TEMPLATE_CHARS * 2);
  const template = text.replace(TOKEN, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args.at(-1) as Record<string, string | undefined>;
    if (groups.quoted !== undefined) {
      const inner = match.slice(1, -1);
      if (PUNCTUATION_ONLY.test(inner)) return match;
      values.push(cap(inner, MAX_VALUE_CHARS));
      const kind = fileish || inner.includes("/") ? "<path>" : "<name>";
      return `${match[0]}${kind}${match.at(-1)}`;
    }
    const kind =
      groups.list !== undefined
        ? "list"
        : groups.url !== undefined
          ? "url"
          : groups.time !== undefined
            ? "time"
            : groups.id !== undefined
              ? "id"
              : groups.hex !== undefined
                ? "hex"
                : groups.path !== undefined
                  ? "path"
                  : "n";
    // Numbers are too many and too meaningless to list as values; the rest are what a researcher looks for.
    if (kind !== "n" && kind !== "time") values.push(cap(match, MAX_VALUE_CHARS));
    return `<${kind}>`;
  });
  return { template: cap(template, MAX_TEMPLATE_CHARS), values };
}
