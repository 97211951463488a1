"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function TaskError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This task could not be loaded"
      hint="Try again, or check that the database is reachable (DATABASE_URL)."
      back={{ href: "/tasks", label: "All tasks" }}
    />
  );
}
