// The export read's SELECT lists and the position of each column in a row (rows are read as arrays, not objects).
// Both providers select exactly these lists; only the way ids are passed and dates are rendered differs.

/** Trajectory with its task, run, parent (exists?) and fork point, aliases t, k, r, p, f. */
export const BASE_COLUMNS = [
  `t."id"`,
  `t."externalId"`,
  `t."outcome"`,
  `t."reward"`,
  `t."verifierOutput"`,
  `t."failureMode"`,
  `t."startedAt"`,
  `t."endedAt"`,
  `t."inputTokens"`,
  `t."outputTokens"`,
  `t."metadata"`,
  `t."parentId"`,
  `t."forkStepIndex"`,
  `t."attemptIndex"`,
  `t."firstErrorCategory"`,
  `k."benchmark"`,
  `k."externalId"`,
  `k."name"`,
  `k."instruction"`,
  `k."category"`,
  `k."difficulty"`,
  `r."name"`,
  `r."model"`,
  `r."agent"`,
  `r."checkpoint"`,
  `r."trainingMethod"`,
  `r."source"`,
  `p."id"`,
  `p."externalId"`,
  `f."errorCategory"`,
] as const;
export const BASE_FROM = `"Trajectory" t JOIN "Task" k ON k."id" = t."taskId" JOIN "Run" r ON r."id" = t."runId"
  LEFT JOIN "Trajectory" p ON p."id" = t."parentId" LEFT JOIN "ForkPoint" f ON f."id" = t."forkPointId"`;
export const B = {
  id: 0,
  externalId: 1,
  outcome: 2,
  reward: 3,
  verifierOutput: 4,
  failureMode: 5,
  startedAt: 6,
  endedAt: 7,
  inputTokens: 8,
  outputTokens: 9,
  metadata: 10,
  parentId: 11,
  forkStepIndex: 12,
  attemptIndex: 13,
  firstErrorCategory: 14,
  taskBenchmark: 15,
  taskExternalId: 16,
  taskName: 17,
  taskInstruction: 18,
  taskCategory: 19,
  taskDifficulty: 20,
  runName: 21,
  runModel: 22,
  runAgent: 23,
  runCheckpoint: 24,
  runTrainingMethod: 25,
  runSource: 26,
  parentExists: 27,
  parentExternalId: 28,
  forkErrorCategory: 29,
} as const;

/** Step, alias s; ordered by trajectory and index. */
export const STEP_COLUMNS = [
  `s."trajectoryId"`,
  `s."index"`,
  `s."source"`,
  `s."timestamp"`,
  `s."offsetMs"`,
  `s."message"`,
  `s."reasoning"`,
  `s."action"`,
  `s."toolCalls"`,
  `s."observation"`,
  `s."exitCode"`,
  `s."promptTokens"`,
  `s."completionTokens"`,
  `s."isCopiedContext"`,
] as const;
export const S = {
  trajectoryId: 0,
  index: 1,
  source: 2,
  timestamp: 3,
  offsetMs: 4,
  message: 5,
  reasoning: 6,
  action: 7,
  toolCalls: 8,
  observation: 9,
  exitCode: 10,
  promptTokens: 11,
  completionTokens: 12,
  isCopiedContext: 13,
} as const;

/** Annotation with its schema key, annotator name and fork-point step, aliases a, ls, u, fp; ordered by id. */
export const ANNOTATION_COLUMNS = [
  `a."trajectoryId"`,
  `ls."key"`,
  `u."name"`,
  `a."targetType"`,
  `a."stepStart"`,
  `a."stepEnd"`,
  `fp."stepIndex"`,
  `a."value"`,
  `a."comment"`,
  `a."createdAt"`,
  `a."updatedAt"`,
] as const;
export const ANNOTATION_FROM = `"Annotation" a JOIN "LabelSchema" ls ON ls."id" = a."schemaId" JOIN "User" u ON u."id" = a."annotatorId"
  LEFT JOIN "ForkPoint" fp ON fp."id" = a."forkPointId"`;
export const A = {
  trajectoryId: 0,
  schema: 1,
  annotator: 2,
  targetType: 3,
  stepStart: 4,
  stepEnd: 5,
  forkStepIndex: 6,
  value: 7,
  comment: 8,
  createdAt: 9,
  updatedAt: 10,
} as const;

/** Recording, alias rc. */
export const RECORDING_COLUMNS = [`rc."trajectoryId"`, `rc."format"`, `rc."width"`, `rc."height"`, `rc."header"`] as const;
export const R = { trajectoryId: 0, format: 1, width: 2, height: 3, header: 4 } as const;

/** Recording chunks (trajectory id, events), ordered by trajectory and seq. */
export const CHUNK_COLUMNS = [`rc."trajectoryId"`, `c."events"`] as const;
export const CHUNK_FROM = `"Recording" rc JOIN "RecordingChunk" c ON c."recordingId" = rc."id"`;

/** DatasetItem rows of a version after a position, in position order. */
export const ITEM_COLUMNS = [`"position"`, `"trajectoryId"`, `"kind"`, `"labels"`] as const;
