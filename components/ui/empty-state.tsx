import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** What to show when there is nothing yet: say why, and what to do about it. */
export function EmptyState({
  title,
  children,
  icon,
  className,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="status"
      className={cn("flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed px-6 py-14 text-center", className)}
    >
      {icon ? <div className="text-muted-foreground [&_svg]:size-8">{icon}</div> : null}
      <h2 className="text-base font-semibold">{title}</h2>
      <div className="max-w-prose text-sm text-muted-foreground">{children}</div>
    </div>
  );
}
