// What an account action said: an error, a confirmation, and a one-time secret (password or token) to copy.
import type { ActionResult } from "@/lib/http/action-result";

export function ActionMessage({ state }: { state: ActionResult<{ message: string; secret?: string }> | null }) {
  if (!state) return null;
  if (!state.ok) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {state.error}
      </p>
    );
  }
  return (
    <div role="status" className="flex flex-col gap-1 text-sm">
      <p>{state.data.message}</p>
      {state.data.secret ? (
        <code data-testid="one-time-secret" className="w-fit select-all rounded-md border bg-muted px-2 py-1 font-mono text-xs break-all">
          {state.data.secret}
        </code>
      ) : null}
    </div>
  );
}
