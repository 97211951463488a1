// An annotator's error category on a fork point, written as the annotation workstation stores it: the forkError facet
// and the fork-category analytics count that fork point's attempts under this label instead of the detected category.
import type { Db } from "../../lib/db/client.ts";

export async function labelForkCategory(
  db: Db,
  annotatorId: string,
  fork: { id: string; trajectoryId: string },
  value: string,
): Promise<void> {
  const schema = await db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
  await db.annotation.create({
    data: {
      schemaId: schema.id,
      annotatorId,
      targetType: "fork_point",
      targetKey: `fork:${fork.id}`,
      trajectoryId: fork.trajectoryId,
      forkPointId: fork.id,
      value,
    },
  });
}
