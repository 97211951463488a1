// The one CSV writer (analytics exports, labels exports). RFC 4180: quote a field that holds a comma, quote, CR or
// LF, double the quotes inside, end records with CRLF. Imported names, label values and comments are untrusted: a
// cell a spreadsheet would run as a formula gets a leading `'` and is quoted, so "=HYPERLINK(…)" stays text.

export type CsvCell = string | number | null | undefined;

/** Starts like a formula (OWASP CSV injection): = + - @ TAB or CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number ("-1", "+2.5") is no formula and is left alone, so numeric values stay numeric. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

export function csvField(v: CsvCell): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  const guarded = FORMULA_START.test(v) && !PLAIN_NUMBER.test(v);
  const s = guarded ? `'${v}` : v;
  return guarded || /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV record (with its CRLF). */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(",") + "\r\n";
}

export function toCsv(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [columns, ...rows].map(csvLine).join("");
}
