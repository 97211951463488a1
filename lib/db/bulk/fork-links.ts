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

/** SQL shared by both providers (the rate over attempts with a known outcome, as lib/domain/analytics/metrics.ts; quoted identifiers, correlated sub-queries). `?` placeholders; the pg writer renumbers. */
export const REFRESH_COUNTS_SQL = `UPDATE "Trajectory" SET
  "forkPointCount" = (SELECT COUNT(*) FROM "ForkPoint" f WHERE f."trajectoryId" = "Trajectory"."id"),
  "attemptCount" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."parentId" = "Trajectory"."id"),
  "recoveryRate" = (SELECT CASE WHEN COUNT(*) = 0 THEN NULL ELSE SUM(CASE WHEN a."outcome" = 'passed' THEN 1.0 ELSE 0.0 END) / COUNT(*) END FROM "Trajectory" a WHERE a."parentId" = "Trajectory"."id" AND a."outcome" IN ('passed', 'failed'))
  WHERE "id" = ?`;
