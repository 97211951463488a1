import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

export default function RunNotFound() {
  return (
    <EmptyState title="Run not found" icon={<SearchX />}>
      <p className="mb-3">It may have been deleted, or the link is incomplete.</p>
      <Link className="text-primary hover:underline" href="/runs">
        Back to all runs
      </Link>
    </EmptyState>
  );
}
