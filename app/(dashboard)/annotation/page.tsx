import type { Metadata } from "next";
import Link from "next/link";
import { Tags } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/services/page-context";
import { EmptyState } from "@/components/ui/empty-state";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Annotation" };

export default async function AnnotationPage() {
  await getPageContext("trajectory:read");
  return (
    <>
      <PageHeader title="Annotation" description="Label where and why trajectories failed, and how good each recovery attempt is." />
      <EmptyState title="No annotation queue yet" icon={<Tags />}>
        Keyboard-driven labelling arrives with the annotation feature. Meanwhile, detected errors are shown as suggestions on each{" "}
        <Link className="text-primary hover:underline" href="/trajectories">trajectory</Link>.
      </EmptyState>
    </>
  );
}
