import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TerminalSquare } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { Code } from "@/components/ui/code";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { findPageContext } from "@/lib/services/page-context";
import { currentAuthMode } from "@/lib/services/accounts/authenticate";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const safeNext = (raw: unknown) =>
  typeof raw === "string" && /^\/(?!\/)[^\s\\]*$/.test(raw) && !raw.startsWith("/sign-in") ? raw : "/trajectories";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  // Local mode has no accounts; a visitor who is already signed in goes on. Credentials the request carries that were
  // refused (a revoked token, a Basic header) are shown rather than redirected on: the same request would come back.
  const { ctx, refused } = await findPageContext();
  const local = currentAuthMode() === "local";
  if (!refused && (local || ctx)) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4">
      <Card className="w-full max-w-sm">
        <CardContent className="flex flex-col gap-5 p-6">
          <div className="flex items-center gap-2 font-semibold tracking-tight">
            <TerminalSquare className="size-5 text-primary" aria-hidden />
            ReTerm Studio
          </div>
          <div>
            <h1 className="text-lg font-semibold">Sign in</h1>
            <p className="text-sm text-muted-foreground">
              Accounts are created by an admin, on the Users page or with <Code>npm run reterm -- user add</Code>.
            </p>
          </div>
          {refused ? (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">
              This request&apos;s Authorization header was refused: {refused}. Pages use the session cookie; API tokens are for{" "}
              <Code>/api/v1</Code>.
            </p>
          ) : null}
          {local ? null : <SignInForm next={next} />}
        </CardContent>
      </Card>
    </main>
  );
}
