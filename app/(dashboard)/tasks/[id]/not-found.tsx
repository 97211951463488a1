import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

export default function TaskNotFound() {
  return (
    <EmptyState title="Task not found" icon={<SearchX />}>
      <p className="mb-3">It may have been deleted, or the link is incomplete.</p>
      <Link className="text-primary hover:underline" href="/tasks">
        Back to all tasks
      </Link>
    </EmptyState>
  );
}
