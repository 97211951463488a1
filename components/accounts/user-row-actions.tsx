"use client";
import { useActionState } from "react";
import { resetPasswordAction, setUserRoleAction } from "@/lib/actions/accounts/user-actions";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/input";
import { ActionMessage } from "./action-message";
import { ROLES } from "@/lib/domain/authz";

/** Role change and password reset for one user, each a small form posting to its server action. */
export function UserRowActions({ name, role }: { name: string; role: string }) {
  const [roleState, setRole, rolePending] = useActionState(setUserRoleAction, null);
  const [resetState, reset, resetPending] = useActionState(resetPasswordAction, null);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <form action={setRole} className="flex items-center gap-1.5">
          <input type="hidden" name="name" value={name} />
          <NativeSelect name="role" defaultValue={role} aria-label={`Role of ${name}`} className="h-8">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" size="sm" variant="outline" disabled={rolePending}>
            Save role
          </Button>
        </form>
        <form action={reset}>
          <input type="hidden" name="name" value={name} />
          <Button type="submit" size="sm" variant="ghost" disabled={resetPending}>
            Reset password
          </Button>
        </form>
      </div>
      <ActionMessage state={roleState} />
      <ActionMessage state={resetState} />
    </div>
  );
}
