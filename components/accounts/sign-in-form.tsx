"use client";
import { useActionState, useState } from "react";
import { signInAction } from "@/lib/actions/accounts/session-actions";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionMessage } from "./action-message";

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(signInAction, null);
  // Controlled, so a failed attempt keeps the name (React resets uncontrolled fields after a form action).
  const [username, setUsername] = useState("");
  return (
    <form action={action} className="flex flex-col gap-4">
      <input type="hidden" name="next" value={next} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="username">User name</Label>
        <Input
          id="username"
          name="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="password">Password</Label>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <ActionMessage state={state} />
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
