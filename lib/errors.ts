/** Error codes the app raises on purpose; anything else is a bug and surfaces as 500. */
export const errorStatus = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISDIRECTED_REQUEST: 421,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  IMPORT_FAILED: 422,
  DB_UNAVAILABLE: 503,
  CONFIG: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * One line a person can act on, for errors that reach a CLI entry point: our own AppErrors as they are, database
 * driver errors (Prisma's, pg's) reduced to their last meaningful line, anything else as a bug — its message only
 * (a stack trace is for developers: RETERM_DEBUG=1 prints it).
 */
export function describeError(e: unknown): { message: string; expected: boolean } {
  if (isAppError(e)) return { message: e.message, expected: true };
  const err = e as { name?: string; message?: string; code?: string; stack?: string };
  if (err?.name?.startsWith("PrismaClient") || /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|28P01|3D000)$/.test(err?.code ?? "")) {
    const line =
      (err.message ?? "")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .at(-1) ?? String(e);
    return { message: `database error: ${line} (check DATABASE_URL and that the server is running)`, expected: true };
  }
  const detail =
    process.env.RETERM_DEBUG === "1"
      ? (err?.stack ?? String(e))
      : `${err?.name && err.name !== "Error" ? `${err.name}: ` : ""}${err?.message ?? String(e)} (RETERM_DEBUG=1 shows where)`;
  return { message: `unexpected error: ${detail}`, expected: false };
}
