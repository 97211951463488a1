// CSV for the analytics exports (RFC 4180: quote fields with commas, quotes or line breaks; double inner quotes).
// Cells that a spreadsheet would run as a formula (=, +, -, @ first) are prefixed with a quote — imported names are
// untrusted, and a task called "=HYPERLINK(…)" must stay text.

export type CsvCell = string | number | null | undefined;

function cell(v: CsvCell): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [columns, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
