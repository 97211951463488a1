"use client";
// Below 768 px the sidebar is a menu button in a top bar; the nav opens as a drawer over the page. Radix's dialog
// gives the accessible parts: the button's aria-expanded/aria-controls, focus moved into the drawer and kept there,
// Escape and a click outside close it, and focus goes back to the button. It also closes when a link is followed.
import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Dialog } from "radix-ui";
import { Menu, TerminalSquare, X } from "lucide-react";
import { Button } from "@/components/ui/button";

export function MobileNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // A link to another page closes the drawer when the new page is there (a link to this page closes it on click).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  // The drawer only exists on small screens: widening the window past the breakpoint closes it.
  useEffect(() => {
    if (!open) return;
    const wide = window.matchMedia("(min-width: 768px)");
    const onChange = () => wide.matches && setOpen(false);
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, [open]);
  const onClick = (e: MouseEvent<HTMLElement>) => {
    const link = (e.target as HTMLElement).closest("a");
    if (link && link.getAttribute("href") === pathname) setOpen(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <header className="sticky top-0 z-30 flex h-12 items-center gap-2 border-b bg-card px-2 md:hidden">
        <Dialog.Trigger asChild>
          <Button variant="ghost" size="icon" aria-label="Menu" data-testid="menu-button">
            <Menu aria-hidden />
          </Button>
        </Dialog.Trigger>
        <Link href="/trajectories" prefetch={false} className="flex items-center gap-2 font-semibold tracking-tight">
          <TerminalSquare className="size-5 text-primary" aria-hidden />
          ReTerm Studio
        </Link>
      </header>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col bg-card shadow-lg outline-none md:hidden"
          onClick={onClick}
        >
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <Dialog.Close asChild>
            <Button variant="ghost" size="icon" aria-label="Close menu" className="absolute top-2 right-2">
              <X aria-hidden />
            </Button>
          </Dialog.Close>
          <nav aria-label="Main" className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-3 py-4">
            {children}
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
