"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function DashboardError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="Something went wrong loading this page"
      hint="If the database is unreachable, check DATABASE_URL and that the server is running."
    />
  );
}
