// The audit log's vocabulary. New capabilities add their actions here (one line each) so the log stays greppable.
export const AUDIT_ACTIONS = [
  "auth.sign-in",
  "auth.sign-in-failed",
  "auth.sign-out",
  "auth.password-change",
  "user.create",
  "user.role-change",
  "user.password-reset",
  "user.disable",
  "user.enable",
  "user.delete",
  "token.create",
  "token.revoke",
  "import.finish",
  "dataset.export",
  "dataset.freeze",
  "dataset.delete",
  "label.write",
  "label.import",
  "label.adjudicate",
  "suggestion.import",
  "suggestion.decide",
  "suggestion.withdraw",
  "queue.create",
  "schema.change",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
