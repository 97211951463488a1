// FailureModeRollup and FailureValueRollup kept in step with FailureSignature: the rows a batch of signatures adds to
// each (mode, run, task, UTC import day) and (mode, value, run, task, day), upserted in the transaction that writes
// the signatures, and rebuilds from the signatures for the rare paths that remove them (lib/db/repositories/
// failure-modes/rollup.ts: a strict import's rollback, a reindex).
import { SIGNATURE_COLUMNS, type Cell } from "./rows.ts";

export const ROLLUP_COLUMNS = [
  "templateHash",
  "runId",
  "taskId",
  "day",
  "template",
  "kind",
  "category",
  "trajectories",
  "failedTrajectories",
  "steps",
  "firstSeen",
  "lastSeen",
] as const;

const at = (c: (typeof SIGNATURE_COLUMNS)[number]) => SIGNATURE_COLUMNS.indexOf(c);
const TRAJECTORY = at("trajectoryId"),
  HASH = at("templateHash"),
  TEMPLATE = at("template"),
  KIND = at("kind"),
  CATEGORY = at("category");
const RUN = at("runId"),
  TASK = at("taskId"),
  OUTCOME = at("outcome"),
  IMPORTED = at("importedAt"),
  VALUE = at("value");
const byKeyOrder = (x: { key: string }, y: { key: string }) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);

interface Acc {
  key: string;
  row: Cell[];
  trajectories: Set<string>;
  failed: Set<string>;
  steps: number;
  first: string;
  last: string;
}

/**
 * The rollup rows of these signature rows (their run and task ids filled in), sorted by key so concurrent writers
 * take row locks in one order. `day` turns "YYYY-MM-DD" into the provider's DateTime cell; the signature's
 * importedAt cell is the provider's text form, which begins with the UTC day and sorts in time order.
 */
export function rollupRows(signatures: readonly Cell[][], day: (isoDay: string) => Cell): Cell[][] {
  const byKey = new Map<string, Acc>();
  for (const s of signatures) {
    const imported = String(s[IMPORTED]);
    const isoDay = imported.slice(0, 10);
    const key = `${String(s[HASH])}\u0000${String(s[RUN])}\u0000${String(s[TASK])}\u0000${isoDay}`;
    let a = byKey.get(key);
    if (!a) {
      a = {
        key,
        row: [s[HASH]!, s[RUN]!, s[TASK]!, day(isoDay), s[TEMPLATE]!, s[KIND]!, s[CATEGORY]!],
        trajectories: new Set(),
        failed: new Set(),
        steps: 0,
        first: imported,
        last: imported,
      };
      byKey.set(key, a);
    }
    const t = String(s[TRAJECTORY]);
    a.trajectories.add(t);
    if (s[OUTCOME] === "failed") a.failed.add(t);
    a.steps += 1;
    if (imported < a.first) a.first = imported;
    if (imported > a.last) a.last = imported;
  }
  return [...byKey.values()].sort(byKeyOrder).map((a) => [...a.row, a.trajectories.size, a.failed.size, a.steps, a.first, a.last]);
}

export const VALUE_ROLLUP_COLUMNS = ["templateHash", "value", "runId", "taskId", "day", "steps"] as const;

/** The value rollup rows of these signature rows (those with a value), sorted by key like rollupRows. */
export function valueRollupRows(signatures: readonly Cell[][], day: (isoDay: string) => Cell): Cell[][] {
  const acc = new Map<string, { key: string; row: Cell[]; steps: number }>();
  for (const s of signatures) {
    if (s[VALUE] === null || s[VALUE] === undefined) continue;
    const isoDay = String(s[IMPORTED]).slice(0, 10);
    const key = `${String(s[HASH])}\u0000${String(s[VALUE])}\u0000${String(s[RUN])}\u0000${String(s[TASK])}\u0000${isoDay}`;
    const a = acc.get(key) ?? { key, row: [s[HASH]!, s[VALUE]!, s[RUN]!, s[TASK]!, day(isoDay)], steps: 0 };
    a.steps += 1;
    acc.set(key, a);
  }
  return [...acc.values()].sort(byKeyOrder).map((a) => [...a.row, a.steps]);
}

type Dialect = "sqlite" | "postgresql";
const cols = ROLLUP_COLUMNS.map((c) => `"${c}"`).join(", ");

/** INSERT … ON CONFLICT adding `rows` rows of deltas (placeholders `?` on SQLite, `$n` on PostgreSQL). */
export function upsertRollupSql(dialect: Dialect, rows: number): string {
  const n = ROLLUP_COLUMNS.length;
  const values = Array.from(
    { length: rows },
    (_, r) => `(${ROLLUP_COLUMNS.map((_, c) => (dialect === "sqlite" ? "?" : `$${r * n + c + 1}`)).join(", ")})`,
  ).join(", ");
  const [min, max] = dialect === "sqlite" ? ["MIN", "MAX"] : ["LEAST", "GREATEST"];
  return `INSERT INTO "FailureModeRollup" (${cols}) VALUES ${values}
    ON CONFLICT ("templateHash", "runId", "taskId", "day") DO UPDATE SET
      "trajectories" = "FailureModeRollup"."trajectories" + excluded."trajectories",
      "failedTrajectories" = "FailureModeRollup"."failedTrajectories" + excluded."failedTrajectories",
      "steps" = "FailureModeRollup"."steps" + excluded."steps",
      "firstSeen" = ${min}("FailureModeRollup"."firstSeen", excluded."firstSeen"),
      "lastSeen" = ${max}("FailureModeRollup"."lastSeen", excluded."lastSeen")`;
}

/** INSERT … ON CONFLICT adding `rows` rows of value-rollup deltas. */
export function upsertValueRollupSql(dialect: Dialect, rows: number): string {
  const n = VALUE_ROLLUP_COLUMNS.length;
  const values = Array.from(
    { length: rows },
    (_, r) => `(${VALUE_ROLLUP_COLUMNS.map((_, c) => (dialect === "sqlite" ? "?" : `$${r * n + c + 1}`)).join(", ")})`,
  ).join(", ");
  return `INSERT INTO "FailureValueRollup" (${VALUE_ROLLUP_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES ${values}
    ON CONFLICT ("templateHash", "value", "runId", "taskId", "day") DO UPDATE SET "steps" = "FailureValueRollup"."steps" + excluded."steps"`;
}

/** The rollup's columns, and a signature's UTC import day as the provider stores a DateTime (for rebuilds in SQL). */
export const ROLLUP_COLUMN_LIST = cols;
export function rollupDaySql(dialect: Dialect, alias: string): string {
  return dialect === "sqlite"
    ? `substr("${alias}"."importedAt", 1, 10) || 'T00:00:00.000+00:00'`
    : `date_trunc('day', "${alias}"."importedAt")`;
}
