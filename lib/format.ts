/** Display helpers shared by server and client components (pure, locale-stable). */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

export function formatReward(r: number | null | undefined): string {
  return r === null || r === undefined ? "—" : r.toFixed(2);
}

export function formatPercent(r: number | null | undefined): string {
  return r === null || r === undefined ? "—" : `${Math.round(r * 100)}%`;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return iso.slice(0, 16).replace("T", " ");
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A count that may have stopped at a cap (search totals): "1,000+" when there are more than `n`. */
export function formatCountAtLeast(n: number, capped: boolean): string {
  return capped ? `${formatCount(n)}+` : formatCount(n);
}

/** A file size for people: bytes under a kilobyte, then KB/MB/GB with one decimal (an empty file is "0 bytes"). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} byte${n === 1 ? "" : "s"}`;
  const [value, unit] = n < 1e6 ? [n / 1e3, "KB"] : n < 1e9 ? [n / 1e6, "MB"] : [n / 1e9, "GB"];
  return `${value.toFixed(1)} ${unit}`;
}
