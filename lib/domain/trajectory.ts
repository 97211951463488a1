import { z } from "zod";

/**
 * The normalized trajectory every importer produces, and the project's native JSONL format (one per line).
 * docs/native-format.schema.json is generated from this schema (npm run reterm -- schema).
 */
export const OUTCOMES = ["passed", "failed", "unknown"] as const;
export const outcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof outcomeSchema>;

export const STEP_SOURCES = ["agent", "user", "system", "tool"] as const;
export const stepSourceSchema = z.enum(STEP_SOURCES);

export const TRAINING_METHODS = ["base", "sft", "grpo", "recovery-grpo", "other"] as const;

const isoDate = z.iso.datetime({ offset: true, local: true });

export const toolCallSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  arguments: z.unknown().optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const stepSchema = z.object({
  source: stepSourceSchema,
  timestamp: isoDate.optional(),
  /** Milliseconds since the trajectory started. */
  offsetMs: z.number().int().nonnegative().optional().describe("Milliseconds since the trajectory started."),
  message: z.string().optional(),
  reasoning: z.string().optional(),
  /** What was typed: commands/keystrokes, one per line, or a readable rendering of the tool call. */
  action: z
    .string()
    .optional()
    .describe("What the agent typed: commands/keystrokes (one per line) or a readable rendering of the tool call."),
  toolCalls: z.array(toolCallSchema).optional(),
  observation: z.string().optional().describe("What the terminal/tool returned (raw, ANSI escapes allowed)."),
  exitCode: z.number().int().optional().describe("Exit code of the command when known."),
  promptTokens: z.number().int().nonnegative().optional(),
  completionTokens: z.number().int().nonnegative().optional(),
  /** Copied from an earlier trajectory as context (ATIF is_copied_context): excluded from SFT, used to infer forks. */
  isCopiedContext: z
    .boolean()
    .optional()
    .describe("Step copied from the parent trajectory (shared prefix of a recovery attempt); excluded from SFT."),
});
export type StepInput = z.infer<typeof stepSchema>;

/** asciicast-style event: [seconds since start, code, data]. */
export const recordingEventSchema = z.tuple([z.number().nonnegative(), z.enum(["o", "i", "m", "r", "x"]), z.string()]);
export type RecordingEvent = z.infer<typeof recordingEventSchema>;

export const recordingSchema = z.object({
  format: z.enum(["asciicast-v1", "asciicast-v2", "asciicast-v3", "synthesized"]).default("asciicast-v2"),
  width: z.number().int().min(1).max(1000),
  height: z.number().int().min(1).max(1000),
  header: z.record(z.string(), z.unknown()).optional(),
  events: z.array(recordingEventSchema),
});
export type RecordingInput = z.infer<typeof recordingSchema>;

export const taskRefSchema = z.object({
  benchmark: z.string().min(1).default("unknown"),
  id: z.string().min(1),
  name: z.string().optional(),
  instruction: z.string().optional(),
  category: z.string().optional(),
  difficulty: z.string().optional(),
});

export const runRefSchema = z.object({
  name: z.string().min(1),
  model: z.string().optional(),
  agent: z.string().optional(),
  checkpoint: z.string().optional(),
  trainingMethod: z.enum(TRAINING_METHODS).optional(),
  source: z.string().optional(),
});

export const forkRefSchema = z.object({
  /** Client id (`id`) of the parent trajectory. */
  parentId: z.string().min(1),
  /** 0-based index of the parent's step after which this attempt diverges. */
  stepIndex: z.number().int().nonnegative(),
  attemptIndex: z.number().int().nonnegative().optional(),
  errorCategory: z.string().optional(),
});

/** A person's label on this trajectory, portable across databases (schema by key, annotator by name). */
export const labelRefSchema = z.object({
  schema: z.string().min(1).describe("LabelSchema key, e.g. error-category."),
  annotator: z.string().min(1).describe("User name of the annotator (created as annotator on import when missing)."),
  target: z.enum(["trajectory", "step_range", "fork_point", "attempt"]),
  stepStart: z.number().int().nonnegative().optional(),
  stepEnd: z.number().int().nonnegative().optional(),
  /** For fork_point labels: the step index of the fork point on this trajectory. */
  forkStepIndex: z.number().int().nonnegative().optional(),
  value: z.string(),
  comment: z.string().optional(),
  createdAt: isoDate.optional(),
  updatedAt: isoDate.optional(),
});
export type LabelRef = z.infer<typeof labelRefSchema>;

export const NATIVE_FORMAT = "reterm.trajectory.v1";

export const trajectorySchema = z.object({
  format: z.literal(NATIVE_FORMAT).default(NATIVE_FORMAT),
  /** Client-supplied stable id; makes imports idempotent and lets attempts reference their parent. */
  id: z.string().min(1).max(200).optional().describe("Stable client id: makes imports idempotent and lets attempts name their parent."),
  task: taskRefSchema,
  run: runRefSchema,
  outcome: outcomeSchema.default("unknown").describe("Verifier verdict."),
  reward: z.number().nullable().optional(),
  verifierOutput: z.string().optional(),
  failureMode: z.string().optional(),
  startedAt: isoDate.optional(),
  endedAt: isoDate.optional(),
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  steps: z.array(stepSchema),
  recording: recordingSchema.optional().describe("Terminal recording (asciicast-style events, seconds since start) for replay."),
  fork: forkRefSchema.optional().describe("Present when this trajectory is a recovery attempt forked from another one."),
  metadata: z.record(z.string(), z.unknown()).optional(),
  labels: z
    .array(labelRefSchema)
    .optional()
    .describe("People's labels on this trajectory (exported datasets carry them; imported as annotations)."),
});

/** A trajectory as parsed (defaults applied). */
export type TrajectoryInput = z.infer<typeof trajectorySchema>;
/** What callers may write (defaults optional). */
export type TrajectoryDraft = z.input<typeof trajectorySchema>;

/** Importer output: the trajectory plus where it came from, for error messages and provenance. */
export interface NormalizedTrajectory {
  trajectory: TrajectoryInput;
  sourceFormat: string;
  sourceFile?: string;
  /** Content identity computed by the importer from the source bytes (else derived from the parsed trajectory). */
  contentHash?: string;
  /** What could not be read from the source (bad lines, invalid events, missing parts): kept with the trajectory. */
  warnings?: ImportWarning[];
}

/** A problem in a source whose trajectory was still imported, where it is: file, line, field. */
export interface ImportWarning {
  file: string;
  line?: number;
  path?: string;
  message: string;
}
