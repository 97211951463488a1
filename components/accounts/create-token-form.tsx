"use client";
import { useActionState } from "react";
import { createTokenAction } from "@/lib/actions/accounts/token-actions";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionMessage } from "./action-message";

export function CreateTokenForm() {
  const [state, action, pending] = useActionState(createTokenAction, null);
  return (
    <form action={action} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="token-name">Token name</Label>
          <Input
            id="token-name"
            name="name"
            required
            maxLength={100}
            placeholder="e.g. training-pipeline"
            className="w-64"
            autoComplete="off"
          />
        </div>
        <Button type="submit" disabled={pending}>
          Create token
        </Button>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
