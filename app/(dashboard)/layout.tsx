import type { ReactNode } from "react";
import { AppSidebar } from "@/components/layout/app-sidebar";
import { getPageContext } from "@/lib/services/page-context";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { actor } = await getPageContext();
  return (
    <div className="flex min-h-screen">
      <AppSidebar userName={actor.name} role={actor.role} />
      <main className="min-w-0 flex-1 px-6 py-5">{children}</main>
    </div>
  );
}
