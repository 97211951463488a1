import Link from "next/link";
import { TerminalSquare } from "lucide-react";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu, type UserMenuProps } from "@/components/accounts/user-menu";

export function AppSidebar({ user, canImport }: { user: UserMenuProps; canImport: boolean }) {
  return (
    <nav aria-label="Main" className="sticky top-0 flex h-screen w-52 shrink-0 flex-col gap-4 border-r bg-card px-3 py-4">
      {/* The same page as the Trajectories link below, which prefetches it where that is wanted (nav-links.tsx). */}
      <Link href="/trajectories" prefetch={false} className="flex items-center gap-2 px-1.5 font-semibold tracking-tight">
        <TerminalSquare className="size-5 text-primary" aria-hidden />
        ReTerm Studio
      </Link>
      <NavLinks canImport={canImport} />
      <div className="mt-auto flex flex-col gap-2 border-t pt-3">
        <UserMenu {...user} />
        <ThemeToggle />
      </div>
    </nav>
  );
}
