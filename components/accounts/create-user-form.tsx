"use client";
import { useActionState } from "react";
import { createUserAction } from "@/lib/actions/accounts/user-actions";
import { Button } from "@/components/ui/button";
import { Input, Label, NativeSelect } from "@/components/ui/input";
import { ActionMessage } from "./action-message";
import { ROLES } from "@/lib/domain/authz";

export function CreateUserForm() {
  const [state, action, pending] = useActionState(createUserAction, null);
  return (
    <form action={action} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="new-user-name">User name</Label>
          <Input
            id="new-user-name"
            name="name"
            required
            pattern="[a-z0-9][a-z0-9._\-]{1,63}"
            title="lowercase letters, digits, . - _"
            className="w-56"
            autoComplete="off"
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="new-user-role">Role</Label>
          <NativeSelect id="new-user-role" name="role" defaultValue="viewer">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" disabled={pending}>
          Create user
        </Button>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
