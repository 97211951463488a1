// The sidebar's account block: who is acting, links to their own pages and (admins) user administration, sign-out.
import Link from "next/link";
import { KeyRound, ListTodo, LogOut, ScrollText, UserCog, UserRound } from "lucide-react";
import { signOutAction } from "@/lib/actions/accounts/session-actions";

export interface UserMenuProps {
  userName: string;
  role: string;
  teamMode: boolean;
  canManageUsers: boolean;
  canReadAudit: boolean;
  canReadJobs: boolean;
}

const linkClass =
  "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground";

export function UserMenu({ userName, role, teamMode, canManageUsers, canReadAudit, canReadJobs }: UserMenuProps) {
  return (
    <div className="flex flex-col gap-0.5" aria-label="Account">
      <p className="flex items-center gap-2 px-2.5 pb-1 text-xs text-muted-foreground" data-testid="current-user">
        <UserRound className="size-3.5" aria-hidden />
        <span className="truncate font-medium text-foreground">{userName}</span> · {role}
      </p>
      {teamMode ? (
        <Link href="/account" className={linkClass}>
          <UserRound className="size-4" aria-hidden /> Account
        </Link>
      ) : null}
      <Link href="/account/tokens" className={linkClass}>
        <KeyRound className="size-4" aria-hidden /> API tokens
      </Link>
      {canManageUsers ? (
        <Link href="/admin/users" className={linkClass}>
          <UserCog className="size-4" aria-hidden /> Users
        </Link>
      ) : null}
      {canReadAudit ? (
        <Link href="/admin/audit" className={linkClass}>
          <ScrollText className="size-4" aria-hidden /> Audit log
        </Link>
      ) : null}
      {canReadJobs ? (
        <Link href="/admin/jobs" className={linkClass}>
          <ListTodo className="size-4" aria-hidden /> Jobs
        </Link>
      ) : null}
      {teamMode ? (
        <form action={signOutAction}>
          <button type="submit" className={`${linkClass} w-full`}>
            <LogOut className="size-4" aria-hidden /> Sign out
          </button>
        </form>
      ) : (
        <p className="px-2.5 pt-1 text-xs text-muted-foreground">Local mode: no sign-in on this machine.</p>
      )}
    </div>
  );
}
