"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function TrajectoriesError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The trajectory list could not be loaded"
      hint={
        <>
          Try again; if it keeps failing, check that the database is reachable (DATABASE_URL) and run{" "}
          <code className="font-mono">npm run reterm -- migrate</code> after an upgrade.
        </>
      }
      back={{ href: "/trajectories", label: "Open the unfiltered list" }}
    />
  );
}
