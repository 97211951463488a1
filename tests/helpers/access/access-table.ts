// The route × role matrix's entry table: every page, route handler and server action with what it requires.
// One line each. A file on disk without a line here (or a line without its file) fails tests/integration/route-matrix*.
//   need: a permission from lib/domain/authz.ts (roles holding it are allowed, others refused, anonymous sent to
//         sign-in / 401), "public" (anyone, even signed out), or "signed-in" (any role).
// Pages are keyed by URL path (route groups dropped, [param] kept); route handlers by path + method; actions by
// file#exportName.
import type { Permission } from "../../../lib/domain/authz.ts";

export type Need = Permission | "public" | "signed-in";
export type AccessEntry =
  | { kind: "page"; path: string; need: Need }
  | { kind: "route"; path: string; method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; need: Need }
  | { kind: "action"; path: string; need: Need };

export const ACCESS_TABLE: AccessEntry[] = [
  // pages
  { kind: "page", path: "/", need: "public" }, // redirects to /trajectories, which checks
  { kind: "page", path: "/sign-in", need: "public" },
  { kind: "page", path: "/forbidden", need: "trajectory:read" },
  { kind: "page", path: "/trajectories", need: "trajectory:read" },
  { kind: "page", path: "/trajectories/[id]", need: "trajectory:read" },
  { kind: "page", path: "/trajectories/[id]/compare", need: "trajectory:read" },
  { kind: "page", path: "/tasks", need: "trajectory:read" },
  { kind: "page", path: "/tasks/[id]", need: "trajectory:read" },
  { kind: "page", path: "/runs", need: "trajectory:read" },
  { kind: "page", path: "/runs/[id]", need: "trajectory:read" },
  { kind: "page", path: "/analytics", need: "trajectory:read" },
  { kind: "page", path: "/annotation", need: "trajectory:read" },
  { kind: "page", path: "/datasets", need: "trajectory:read" },
  { kind: "page", path: "/import", need: "trajectory:import" },
  { kind: "page", path: "/account", need: "signed-in" },
  { kind: "page", path: "/account/tokens", need: "signed-in" },
  { kind: "page", path: "/admin/users", need: "user:manage" },
  { kind: "page", path: "/admin/audit", need: "audit:read" },
  // route handlers
  { kind: "route", path: "/api/health", method: "GET", need: "public" },
  { kind: "route", path: "/api/imports", method: "POST", need: "trajectory:import" },
  { kind: "route", path: "/api/v1/search", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories", method: "POST", need: "trajectory:import" },
  { kind: "route", path: "/api/v1/trajectories/[id]/replay", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories/[id]/replay/index", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories/[id]/steps", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/audit", method: "GET", need: "audit:read" },
  // server actions
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#signInAction", need: "public" },
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#signOutAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#changePasswordAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#createUserAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#setUserRoleAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#resetPasswordAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/token-actions.ts#createTokenAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/token-actions.ts#revokeTokenAction", need: "signed-in" },
];
