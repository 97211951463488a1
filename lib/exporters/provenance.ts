// The provenance object every exported row carries, validated by each row schema.
import { z } from "zod";

export const provenanceSchema = z.object({
  trajectoryId: z.string().min(1),
  externalId: z.string().nullable(),
  task: z.string(),
  benchmark: z.string(),
  run: z.string(),
  kind: z.enum(["trajectory", "segment"]),
  parentTrajectoryId: z.string().nullable(),
  forkStep: z.number().int().nonnegative().nullable(),
  attemptIndex: z.number().int().nonnegative().nullable(),
  outcome: z.string(),
  reward: z.number().nullable(),
  labels: z.array(z.object({ schema: z.string(), annotator: z.string(), target: z.string(), value: z.string() })),
  dataset: z.string().min(1),
  version: z.number().int().positive().nullable(),
  datasetHash: z.string().nullable(),
});
