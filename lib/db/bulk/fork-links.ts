// Set-based fork linking for imports: attach many attempts to their parents' fork points and refresh the parents'
// denormalized counts in a few statements instead of a few queries per attempt.
export interface LinkRequest {
  attemptId: string;
  /** The parent, by internal id or by the client id (externalId) the source named. */
  parent: { id: string } | { externalId: string };
  stepIndex: number;
  /** Position among siblings; when absent the next free index at that fork point is used. */
  attemptIndex?: number;
  errorCategory?: string;
  inferred: boolean;
}

/**
 * SQL shared by both providers (the rate over attempts with a known outcome, as lib/domain/analytics/metrics.ts; quoted
 * identifiers, correlated sub-queries). `?` placeholders; the pg writer renumbers. The rate's sub-query filters on
 * parentId alone and counts outcomes inside: with an outcome condition, PostgreSQL's statistics during a long import
 * (stale until the closing ANALYZE) made it AND the parent's rows with every passed or failed trajectory's (8 ms a
 * parent at 2x10^5 trajectories, growing with the table).
 */
export const REFRESH_COUNTS_SQL = `UPDATE "Trajectory" SET
  "forkPointCount" = (SELECT COUNT(*) FROM "ForkPoint" f WHERE f."trajectoryId" = "Trajectory"."id"),
  "attemptCount" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."parentId" = "Trajectory"."id"),
  "recoveryRate" = (SELECT SUM(CASE WHEN a."outcome" = 'passed' THEN 1.0 ELSE 0.0 END) / NULLIF(SUM(CASE WHEN a."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END), 0) FROM "Trajectory" a WHERE a."parentId" = "Trajectory"."id")
  WHERE "id" = ?`;

/**
 * A parent's fork points' own figures, kept beside them so failure modes read recovery per mode without joining the
 * attempts: attempts, those of known outcome, those passed, the first passing attempt's index, and the failure mode
 * the fork point recovers from (the parent's last signature at or before the fork step). Same placeholders.
 */
export const REFRESH_FORK_POINTS_SQL = `UPDATE "ForkPoint" SET
  "attemptCount" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id"),
  "knownAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" IN ('passed', 'failed')),
  "passedAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "firstPass" = (SELECT MIN(a."attemptIndex") FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "failureMode" = (SELECT fs."templateHash" FROM "FailureSignature" fs WHERE fs."trajectoryId" = "ForkPoint"."trajectoryId" AND fs."stepIndex" <= "ForkPoint"."stepIndex" ORDER BY fs."stepIndex" DESC LIMIT 1)
  WHERE "trajectoryId" = ?`;
