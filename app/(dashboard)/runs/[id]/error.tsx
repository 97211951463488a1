"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function RunError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This run could not be loaded"
      hint="Try again, or check that the database is reachable (DATABASE_URL)."
      back={{ href: "/runs", label: "All runs" }}
    />
  );
}
