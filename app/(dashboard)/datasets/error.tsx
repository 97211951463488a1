"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function DatasetsError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="Datasets could not be loaded"
      hint="Try again; if it keeps failing, check that the database is reachable and migrated."
      back={{ href: "/datasets", label: "All datasets" }}
    />
  );
}
