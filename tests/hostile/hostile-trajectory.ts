// One trajectory whose every text field carries what imported content can carry and HTML cannot round-trip: CR and
// CRLF, NUL, lone surrogates, escape sequences, markup, bidi overrides. Deterministic (no randomness).
import { generateTrajectories } from "../../lib/generator/generate.ts";
import type { TrajectoryDraft } from "../../lib/domain/trajectory.ts";

export const HOSTILE_TEXT =
  "ok\r\nline2\rover\u0000nul \ud800lone \udc00low \u001b[31mred\u001b[0m <script>alert(1)</script> <b>bold</b> \u202eevil\u202c \u200b";

export function hostileTrajectory(id = "hostile-text"): TrajectoryDraft {
  const base = [...generateTrajectories({ count: 1, seed: 4180 })][0]!;
  return {
    ...base,
    id,
    fork: undefined,
    task: { ...base.task, id: `task ${HOSTILE_TEXT}`, name: `Task ${HOSTILE_TEXT}`, instruction: HOSTILE_TEXT },
    run: { ...base.run, name: `run ${HOSTILE_TEXT}`, model: HOSTILE_TEXT },
    verifierOutput: HOSTILE_TEXT,
    failureMode: HOSTILE_TEXT,
    steps: base.steps.map((s, i) => ({
      ...s,
      reasoning: `${i} ${HOSTILE_TEXT}`,
      action: `echo ${HOSTILE_TEXT}`,
      observation: `${HOSTILE_TEXT}\n${s.observation ?? ""}`,
      message: HOSTILE_TEXT,
    })),
    metadata: { note: HOSTILE_TEXT },
  };
}
