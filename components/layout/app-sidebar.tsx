import Link from "next/link";
import { TerminalSquare } from "lucide-react";
import type { NavPage } from "@/lib/domain/authz";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";
import { MobileNav } from "./mobile-nav";
import { UserMenu, type UserMenuProps } from "@/components/accounts/user-menu";

/**
 * The main nav: a sidebar from 768 px, a menu button with a drawer below (mobile-nav.tsx). Either shows only the
 * pages the role can open (`pages`, from lib/domain/authz.ts).
 */
export function AppSidebar({
  user,
  pages,
}: {
  user: Omit<UserMenuProps, "canManageUsers" | "canReadAudit" | "canReadJobs">;
  pages: NavPage[];
}) {
  const body = (
    <>
      {/* The same page as the Trajectories link below, which prefetches it where that is wanted (nav-links.tsx). */}
      <Link href="/trajectories" prefetch={false} className="flex items-center gap-2 px-1.5 font-semibold tracking-tight">
        <TerminalSquare className="size-5 text-primary" aria-hidden />
        ReTerm Studio
      </Link>
      <NavLinks pages={pages} />
      <div className="mt-auto flex flex-col gap-2 border-t pt-3">
        <UserMenu
          {...user}
          canManageUsers={pages.includes("/admin/users")}
          canReadAudit={pages.includes("/admin/audit")}
          canReadJobs={pages.includes("/admin/jobs")}
        />
        <ThemeToggle />
      </div>
    </>
  );
  return (
    <>
      <MobileNav>{body}</MobileNav>
      <nav aria-label="Main" className="sticky top-0 hidden h-screen w-52 shrink-0 flex-col gap-4 border-r bg-card px-3 py-4 md:flex">
        {body}
      </nav>
    </>
  );
}
