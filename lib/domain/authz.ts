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
  // The background jobs page: who started what, its state and error (researchers run exports and freezes).
  "jobs:read": ["admin", "researcher"],
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

/**
 * What opening each page of the main nav needs. Those pages guard with this entry (getPageContext) and the nav lists
 * only the pages the role can open: one rule, so a link never ends on "no access". The route × role matrix
 * (tests/helpers/access) checks the guards.
 */
export const PAGE_PERMISSIONS = {
  "/trajectories": "trajectory:read",
  "/tasks": "trajectory:read",
  "/runs": "trajectory:read",
  "/annotation": "annotation:write",
  "/datasets": "trajectory:read",
  "/analytics": "trajectory:read",
  "/import": "trajectory:import",
  "/admin/users": "user:manage",
  "/admin/audit": "audit:read",
  "/admin/jobs": "jobs:read",
} as const satisfies Record<string, Permission>;

export type NavPage = keyof typeof PAGE_PERMISSIONS;

/** The nav pages `actor` may open, in the table's order. */
export function openablePages(actor: Pick<Actor, "role">): NavPage[] {
  return (Object.keys(PAGE_PERMISSIONS) as NavPage[]).filter((p) => can(actor, PAGE_PERMISSIONS[p]));
}
