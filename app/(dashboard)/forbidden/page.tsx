import type { Metadata } from "next";
import Link from "next/link";
import { ShieldAlert } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { getPageContext } from "@/lib/services/page-context";
import { PERMISSIONS, type Permission } from "@/lib/domain/authz";

export const metadata: Metadata = { title: "Not allowed" };
export const dynamic = "force-dynamic";

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { actor } = await getPageContext("trajectory:read");
  const need = (await searchParams).need;
  const permission = typeof need === "string" && need in PERMISSIONS ? (need as Permission) : null;
  return (
    <EmptyState title="You don't have access to that page" icon={<ShieldAlert />}>
      <p className="mb-3">
        You are signed in as {actor.name} ({actor.role}).
        {permission ? ` It needs “${permission}”, which roles ${PERMISSIONS[permission].join(", ")} have.` : null} Ask an admin if you need
        it.
      </p>
      <Link className="text-primary hover:underline" href="/trajectories">
        Back to trajectories
      </Link>
    </EmptyState>
  );
}
