"use client";
// Upload a schemas JSON file (as exported); the server checks all of it before writing anything and names the
// schema and field of each problem.
import { useActionState } from "react";
import { Upload } from "lucide-react";
import { importSchemasAction } from "@/lib/actions/label-schemas";
import { Button } from "@/components/ui/button";

export function ImportSchemasForm() {
  const [state, action, pending] = useActionState(importSchemasAction, null);
  return (
    <form action={action} className="flex flex-wrap items-center gap-2 text-sm" aria-label="Import schemas">
      <input
        type="file"
        name="file"
        accept="application/json,.json"
        aria-label="Schemas JSON file"
        required
        className="text-xs file:mr-2 file:rounded-md file:border file:bg-background file:px-2 file:py-1 file:text-xs file:text-foreground"
      />
      <Button type="submit" variant="outline" size="sm" disabled={pending}>
        <Upload /> Import JSON
      </Button>
      {state ? (
        <p
          role={state.ok ? "status" : "alert"}
          className={state.ok ? "w-full text-xs text-muted-foreground" : "w-full text-xs text-destructive"}
        >
          {state.ok ? state.data.message : state.error}
        </p>
      ) : null}
    </form>
  );
}
