import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ChangePasswordForm } from "@/components/accounts/change-password-form";
import { getPageContext } from "@/lib/services/page-context";
import { currentAuthMode } from "@/lib/services/accounts/authenticate";
import { MIN_PASSWORD_LENGTH } from "@/lib/domain/accounts";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const { actor } = await getPageContext("trajectory:read");
  const team = currentAuthMode() === "team";
  return (
    <>
      <PageHeader title="Account" description={`${actor.name} · ${actor.role}`} />
      <Card className="max-w-lg">
        <CardHeader>
          <CardTitle>Password</CardTitle>
        </CardHeader>
        <CardContent>
          {team ? (
            <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
          ) : (
            <p className="text-sm text-muted-foreground">Local mode has no passwords: the dashboard only answers on this machine.</p>
          )}
        </CardContent>
      </Card>
    </>
  );
}
