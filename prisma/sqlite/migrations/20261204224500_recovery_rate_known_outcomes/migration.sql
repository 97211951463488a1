-- The stored recovery rate counts its attempts with a known outcome only (passed or failed), as every
-- other rate does. It was passed / all attempts, so an attempt of unknown outcome counted as a failure.
UPDATE "Trajectory" SET "recoveryRate" = (
  SELECT CASE WHEN COUNT(*) = 0 THEN NULL ELSE SUM(CASE WHEN a."outcome" = 'passed' THEN 1.0 ELSE 0.0 END) / COUNT(*) END
  FROM "Trajectory" a WHERE a."parentId" = "Trajectory"."id" AND a."outcome" IN ('passed', 'failed')
) WHERE "attemptCount" > 0;
