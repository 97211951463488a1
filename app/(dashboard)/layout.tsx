import type { ReactNode } from "react";
import { AppSidebar } from "@/components/layout/app-sidebar";
import { getPageContext } from "@/lib/services/page-context";
import { currentAuthMode } from "@/lib/services/authenticate";
import { can } from "@/lib/domain/authz";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { actor } = await getPageContext("trajectory:read");
  const user = {
    userName: actor.name,
    role: actor.role,
    teamMode: currentAuthMode() === "team",
    canManageUsers: can(actor, "user:manage"),
    canReadAudit: can(actor, "audit:read"),
  };
  return (
    <div className="flex min-h-screen">
      <AppSidebar user={user} canImport={can(actor, "trajectory:import")} />
      <main className="min-w-0 flex-1 px-6 py-5">{children}</main>
    </div>
  );
}
