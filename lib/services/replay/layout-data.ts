// What is stored for a replay's layout (ReplayLayout.data): kept apart from layout.ts so that the sources can
// name it without importing the code that constructs them.
import { z } from "zod";
import { replayIndexSchema } from "../../domain/replay/recording.ts";

const count = z.number().int().nonnegative();
export const layoutSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("recording"),
    recordingId: z.string(),
    dbSeq: z.array(count),
    index: replayIndexSchema,
    /** Set when building keyframes ran over its budget: the session is replayed without keyframes. */
    keyframesOverBudget: z.string().optional(),
  }),
  z.object({
    kind: z.literal("synthesized"),
    index: replayIndexSchema,
    starts: z.array(z.object({ startMs: count, endMs: count, step: count, event: count })),
    keyframesOverBudget: z.string().optional(),
  }),
]);
export type ReplayLayoutData = z.infer<typeof layoutSchema>;
