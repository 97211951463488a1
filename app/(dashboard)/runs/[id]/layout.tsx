// Unknown ids answer 404: checked here, outside the page's loading boundary, before anything is streamed (a
// notFound() inside the page comes after the 200 shell has been sent). The list page sits in (list)/ so its own
// loading boundary does not wrap this layout.
import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { getPageContext } from "@/lib/services/page-context";
import { runExists } from "@/lib/services/browse/entity-exists";

export default async function RunLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await runExists(await getPageContext(), id))) notFound();
  return children;
}
