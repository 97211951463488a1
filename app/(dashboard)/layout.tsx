import type { ReactNode } from "react";
import { AppSidebar } from "@/components/layout/app-sidebar";
import { getPageContext } from "@/lib/services/page-context";
import { currentAuthMode } from "@/lib/services/accounts/authenticate";
import { openablePages } from "@/lib/domain/authz";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { actor } = await getPageContext("trajectory:read");
  const user = {
    userName: actor.name,
    role: actor.role,
    teamMode: currentAuthMode() === "team",
  };
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <AppSidebar user={user} pages={openablePages(actor)} />
      <main className="min-w-0 flex-1 px-3 py-4 md:px-6 md:py-5">{children}</main>
    </div>
  );
}
