import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

export default function TrajectoryNotFound() {
  return (
    <EmptyState title="Trajectory not found" icon={<SearchX />}>
      It may have been deleted, or the link is wrong.{" "}
      <Link className="text-primary hover:underline" href="/trajectories">
        Back to all trajectories
      </Link>
      .
    </EmptyState>
  );
}
