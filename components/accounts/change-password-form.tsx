"use client";
import { useActionState } from "react";
import { changePasswordAction } from "@/lib/actions/accounts/session-actions";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionMessage } from "./action-message";

export function ChangePasswordForm({ minLength }: { minLength: number }) {
  const [state, action, pending] = useActionState(changePasswordAction, null);
  return (
    <form action={action} className="flex max-w-sm flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="currentPassword">Current password</Label>
        <Input id="currentPassword" name="currentPassword" type="password" autoComplete="current-password" required />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="newPassword">New password</Label>
        <Input id="newPassword" name="newPassword" type="password" autoComplete="new-password" minLength={minLength} required />
        <p className="text-xs text-muted-foreground">At least {minLength} characters.</p>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="confirm">Repeat new password</Label>
        <Input id="confirm" name="confirm" type="password" autoComplete="new-password" minLength={minLength} required />
      </div>
      <ActionMessage state={state} />
      <Button type="submit" disabled={pending} className="w-fit">
        Change password
      </Button>
    </form>
  );
}
