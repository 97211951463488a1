"use client";
import { useActionState } from "react";
import { revokeTokenAction } from "@/lib/actions/accounts/token-actions";
import { Button } from "@/components/ui/button";
import { ActionMessage } from "./action-message";

export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState(revokeTokenAction, null);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="sm" variant="outline" disabled={pending} aria-label={`Revoke ${name}`}>
        Revoke
      </Button>
      <ActionMessage state={state} />
    </form>
  );
}
