import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

export default function DatasetNotFound() {
  return (
    <EmptyState title="Dataset not found" icon={<SearchX />}>
      It may have been deleted, or the link is wrong.{" "}
      <Link className="text-primary hover:underline" href="/datasets">
        All datasets
      </Link>
      .
    </EmptyState>
  );
}
