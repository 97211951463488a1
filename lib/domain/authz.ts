/** Roles and what each may do. Services call `authorize(actor, permission)`; this is the one place rules live. */
export const ROLES = ["admin", "researcher", "annotator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  "trajectory:read": ["admin", "researcher", "annotator", "viewer"],
  "trajectory:import": ["admin", "researcher"],
  "trajectory:delete": ["admin"],
  "annotation:write": ["admin", "researcher", "annotator"],
  // Queues: create, assign, configure (researchers run labelling projects); adjudicate: record the gold label.
  "queue:manage": ["admin", "researcher"],
  "annotation:adjudicate": ["admin", "researcher"],
  "dataset:write": ["admin", "researcher"],
  "dataset:export": ["admin", "researcher"],
  "schema:write": ["admin"],
  "user:manage": ["admin"],
  "audit:read": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** The user on whose behalf a service runs. */
export interface Actor {
  id: string;
  name: string;
  role: Role;
}

export function can(actor: Pick<Actor, "role">, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(actor.role);
}
