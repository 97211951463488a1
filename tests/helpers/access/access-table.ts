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
  { kind: "page", path: "/annotation", need: "annotation:write" },
  { kind: "page", path: "/annotation/queues/[id]", need: "annotation:write" },
  { kind: "page", path: "/annotation/adjudicate/[id]", need: "annotation:adjudicate" },
  { kind: "page", path: "/annotation/schemas", need: "schema:write" },
  { kind: "page", path: "/annotation/schemas/[key]", need: "schema:write" },
  { kind: "page", path: "/datasets", need: "trajectory:read" },
  { kind: "page", path: "/datasets/[name]", need: "trajectory:read" },
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
  { kind: "route", path: "/api/v1/trajectories/[id]/replay/steps", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories/[id]/replay/screen", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/trajectories/[id]/steps", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/audit", method: "GET", need: "audit:read" },
  { kind: "route", path: "/api/v1/annotations", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/annotations", method: "POST", need: "annotation:write" },
  { kind: "route", path: "/api/v1/annotations", method: "PATCH", need: "annotation:write" },
  { kind: "route", path: "/api/v1/annotations", method: "DELETE", need: "annotation:write" },
  { kind: "route", path: "/api/v1/annotations/suggestions", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/annotations/suggestions", method: "POST", need: "annotation:write" },
  { kind: "route", path: "/api/v1/annotations/suggestions/precision", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/label-schemas", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/recovery", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/runs", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/tasks", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/compare", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/progress", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/task-health", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/distributions", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/analytics/annotation", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/datasets", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/datasets", method: "POST", need: "dataset:write" },
  { kind: "route", path: "/api/v1/datasets/[name]", method: "GET", need: "trajectory:read" },
  { kind: "route", path: "/api/v1/datasets/[name]/items", method: "POST", need: "dataset:write" },
  { kind: "route", path: "/api/v1/datasets/[name]/freeze", method: "POST", need: "dataset:write" },
  { kind: "route", path: "/api/v1/datasets/[name]/exports", method: "GET", need: "dataset:export" },
  { kind: "route", path: "/api/v1/datasets/[name]/exports", method: "POST", need: "dataset:export" },
  { kind: "route", path: "/api/exports/[id]", method: "GET", need: "dataset:export" },
  { kind: "route", path: "/api/exports/[id]/download", method: "GET", need: "dataset:export" },
  // server actions
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#signInAction", need: "public" },
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#signOutAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/session-actions.ts#changePasswordAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#createUserAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#setUserRoleAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/user-actions.ts#resetPasswordAction", need: "user:manage" },
  { kind: "action", path: "lib/actions/accounts/token-actions.ts#createTokenAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/accounts/token-actions.ts#revokeTokenAction", need: "signed-in" },
  { kind: "action", path: "lib/actions/annotation.ts#startQueueAction", need: "annotation:write" },
  { kind: "action", path: "lib/actions/annotation.ts#completeItemAction", need: "annotation:write" },
  { kind: "action", path: "lib/actions/annotation.ts#skipItemAction", need: "annotation:write" },
  { kind: "action", path: "lib/actions/annotation.ts#createQueueAction", need: "queue:manage" },
  { kind: "action", path: "lib/actions/annotation.ts#recordGoldAction", need: "annotation:adjudicate" },
  { kind: "action", path: "lib/actions/label-schemas.ts#saveSchemaAction", need: "schema:write" },
  { kind: "action", path: "lib/actions/label-schemas.ts#importSchemasAction", need: "schema:write" },
  { kind: "action", path: "lib/actions/datasets.ts#createDatasetFromFilterAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#editDatasetItemsAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#createDatasetFromSelectionAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#addHeldOutAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#removeHeldOutAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#freezeDatasetAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#deleteDatasetAction", need: "dataset:write" },
  { kind: "action", path: "lib/actions/datasets.ts#createDatasetFromLabelsAction", need: "dataset:write" },
];
