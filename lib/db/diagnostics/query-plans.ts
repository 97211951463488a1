// Query-plan checks for the browser's SQL: capture the statements a service call issues (Prisma's query log), ask
// the database how it would run each (EXPLAIN QUERY PLAN / EXPLAIN) and flag what does not hold at 10^5–10^6 rows:
// a scan of the whole Trajectory table (its rows carry verifier output and metadata) where an index could serve.
// Used by tests/integration/browser-plans.test.ts (plans on small data, both databases) and by
// `bench/browser.ts --explain` (plans at benchmark scale, printed next to the timings).
import { z } from "zod";
import { PrismaClient as SqliteClient } from "../generated/sqlite/client.ts";
import { PrismaClient as PgClient } from "../generated/postgres/client.ts";
import { pgAdapter, sqliteAdapter, type Db } from "../client.ts";
import type { DatabaseConfig } from "../../env.ts";

export interface LoggedStatement {
  sql: string;
  params: unknown[];
}

/** A client like createDb() makes, plus the log of every statement it sends. */
export function createLoggedDb(config: DatabaseConfig): { db: Db; log: LoggedStatement[] } {
  const log: LoggedStatement[] = [];
  const options = { log: [{ emit: "event" as const, level: "query" as const }] };
  const client =
    config.provider === "sqlite"
      ? new SqliteClient({ adapter: sqliteAdapter(config.file), ...options })
      : new PgClient({ adapter: pgAdapter(config.url), ...options });
  client.$on("query", (e) => log.push({ sql: e.query, params: z.array(z.unknown()).parse(JSON.parse(e.params)) }));
  return { db: client as unknown as Db, log };
}

/** The statements worth explaining: reads, without transaction control. */
export function readStatements(log: readonly LoggedStatement[]): LoggedStatement[] {
  return log.filter((s) => /^\s*(SELECT|WITH)\b/i.test(s.sql));
}

const sqlitePlanRow = z.object({ detail: z.string() });
const pgPlanRow = z.object({ "QUERY PLAN": z.string() });

/**
 * The plan of one statement, one line per step. `discourageSeqScan` (PostgreSQL) makes the planner take an index
 * (and nested loops over indexes) whenever one can serve: on a small test database a sequential scan is cheapest anyway, so this is how a test
 * sees whether the index a large database needs is usable by the query.
 */
export async function explain(db: Db, s: LoggedStatement, opts: { discourageSeqScan?: boolean } = {}): Promise<string[]> {
  if (Reflect.get(db, "_activeProvider") === "sqlite") {
    const rows = await db.$queryRawUnsafe<unknown[]>(`EXPLAIN QUERY PLAN ${s.sql}`, ...s.params);
    return z
      .array(sqlitePlanRow)
      .parse(rows)
      .map((r) => r.detail);
  }
  const rows = await db.$transaction(async (tx) => {
    // Hash and merge joins read their inner side whole: on a large table a nested loop over an index is what runs.
    if (opts.discourageSeqScan)
      for (const setting of ["enable_seqscan", "enable_hashjoin", "enable_mergejoin"])
        await tx.$executeRawUnsafe(`SET LOCAL ${setting} = off`);
    return tx.$queryRawUnsafe<unknown[]>(`EXPLAIN ${s.sql}`, ...s.params);
  });
  return z
    .array(pgPlanRow)
    .parse(rows)
    .map((r) => r["QUERY PLAN"]);
}

const indent = (line: string) => line.search(/\S/);
const nodeName = (line: string) => line.replace(/^\s*(->\s+)?/, "");

/** PostgreSQL: the lines below `i` that belong to its node (deeper indentation). */
function subtree(plan: readonly string[], i: number): string[] {
  const out: string[] = [];
  for (let j = i + 1; j < plan.length && indent(plan[j]!) > indent(plan[i]!); j++) out.push(plan[j]!);
  return out;
}

/** PostgreSQL: the node line that `i` hangs under (detail lines such as "Sort Key:" are skipped). */
function parentNode(plan: readonly string[], i: number): string | undefined {
  for (let j = i - 1; j >= 0; j--) {
    const l = plan[j]!;
    if (indent(l) < indent(plan[i]!) && (indent(l) === 0 || l.trimStart().startsWith("->"))) return nodeName(l);
  }
  return undefined;
}

/**
 * Steps of a plan that read every row of the Trajectory table itself (alias t) — the plans that grow with the table
 * and read its widest pages. Not flagged: reading a covering index (SQLite "COVERING INDEX", PostgreSQL "Index Only
 * Scan"), a range of an index (a condition on its leading columns), or an ordered index walk that a LIMIT stops.
 */
export function fullTableScans(plan: readonly string[], statement: string): string[] {
  const limited = /\bLIMIT\b/i.test(statement);
  if (plan.some((l) => /^(SCAN|SEARCH|USE TEMP|CO-ROUTINE|MATERIALIZE|CORRELATED|LIST SUBQUERY|SCALAR SUBQUERY|COMPOUND)/.test(l.trim()))) {
    // SQLite: "SCAN t" reads the table; "SCAN t USING INDEX i" reads all of i and the table, unless it is the
    // ordered walk of a LIMIT query (no temp B-tree sorting the whole result).
    // With the LIMIT inside a sub-query (a co-routine), an outer index walk is not stopped by it.
    const sortsAll = plan.some((l) => /USE TEMP B-TREE FOR ORDER BY|CO-ROUTINE/.test(l));
    return plan.filter(
      (l) => /^\s*SCAN (t|Trajectory)\s*$/.test(l) || (/^\s*SCAN (t|Trajectory) USING INDEX /.test(l) && (!limited || sortsAll)),
    );
  }
  return plan.filter((line, i) => {
    if (!/(Seq Scan|Index Scan|Bitmap Heap Scan)( Backward)?( using "[^"]+")? on "Trajectory"/.test(line) || /Index Only Scan/.test(line))
      return false;
    if (/Seq Scan/.test(line)) return true;
    if (subtree(plan, i).some((l) => /Index Cond:/.test(l)) || /Index Cond:/.test(line)) return false;
    const parent = parentNode(plan, i) ?? "";
    return !(limited && /^(Limit|Incremental Sort)/.test(parent));
  });
}
