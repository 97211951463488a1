"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { BarChart3, Boxes, FolderInput, ListChecks, PlayCircle, Tags, Database } from "lucide-react";
import type { NavPage } from "@/lib/domain/authz";
import { cn } from "@/lib/utils";

const LINKS: { href: NavPage; label: string; icon: typeof PlayCircle }[] = [
  { href: "/trajectories", label: "Trajectories", icon: PlayCircle },
  { href: "/tasks", label: "Tasks", icon: ListChecks },
  { href: "/runs", label: "Runs", icon: Boxes },
  { href: "/annotation", label: "Annotation", icon: Tags },
  { href: "/datasets", label: "Datasets", icon: Database },
  { href: "/analytics", label: "Analytics", icon: BarChart3 },
  { href: "/import", label: "Import", icon: FolderInput },
];

/** Only the pages the role can open (`pages`: lib/domain/authz.ts's openablePages); the server refuses the rest anyway. */
export function NavLinks({ pages }: { pages: readonly NavPage[] }) {
  const pathname = usePathname();
  const onTrajectory = /^\/trajectories\/[^/]+/.test(pathname);
  return (
    <ul className="flex flex-col gap-0.5">
      {LINKS.filter((l) => pages.includes(l.href)).map(({ href, label, icon: Icon }) => {
        const active = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <li key={href}>
            <Link
              href={href}
              // On a trajectory (the replay's first frame competes for the one connection and the server's thread),
              // no RSC prefetches of the other sections: they load on click.
              prefetch={onTrajectory ? false : undefined}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm transition-colors hover:bg-accent hover:text-accent-foreground",
                active ? "bg-accent font-medium text-accent-foreground" : "text-muted-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden />
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
