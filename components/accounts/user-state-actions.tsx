"use client";
import { useActionState, useState } from "react";
import { deleteUserAction, disableUserAction, enableUserAction } from "@/lib/actions/accounts/user-actions";
import { Button } from "@/components/ui/button";
import { ActionMessage } from "./action-message";

/** Disable or enable an account, and delete it (a second click confirms: deletion cannot be undone). */
export function UserStateActions({ name, disabled }: { name: string; disabled: boolean }) {
  const [disableState, disable, disablePending] = useActionState(disableUserAction, null);
  const [enableState, enable, enablePending] = useActionState(enableUserAction, null);
  const togglePending = disablePending || enablePending;
  const [deleteState, remove, deletePending] = useActionState(deleteUserAction, null);
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <form action={disabled ? enable : disable}>
          <input type="hidden" name="name" value={name} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={togglePending}
            aria-label={`${disabled ? "Enable" : "Disable"} ${name}`}
          >
            {disabled ? "Enable" : "Disable"}
          </Button>
        </form>
        {confirming ? (
          <form action={remove} className="flex items-center gap-1.5">
            <input type="hidden" name="name" value={name} />
            <Button type="submit" size="sm" variant="destructive" disabled={deletePending} aria-label={`Confirm delete ${name}`}>
              Delete {name} for good
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
            Delete…
          </Button>
        )}
      </div>
      <ActionMessage state={disabled ? disableState : enableState} />
      <ActionMessage state={deleteState} />
    </div>
  );
}
