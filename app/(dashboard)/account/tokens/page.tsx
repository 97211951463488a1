import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Code } from "@/components/ui/code";
import { CreateTokenForm } from "@/components/accounts/create-token-form";
import { TokensTable } from "@/components/accounts/tokens-table";
import { getPageContext } from "@/lib/services/page-context";
import { listApiTokens } from "@/lib/services/accounts/api-tokens";
import { can } from "@/lib/domain/authz";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const ctx = await getPageContext("trajectory:read");
  const admin = can(ctx.actor, "user:manage");
  const tokens = await listApiTokens(ctx, { all: admin });
  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            For scripts and training pipelines: send <Code>Authorization: Bearer rt_…</Code>. A token acts as its owner, with the
            owner&apos;s role.
            {admin ? " As an admin you see everyone's tokens." : null}
          </>
        }
      />
      <div className="flex flex-col gap-5">
        <Card>
          <CardHeader>
            <CardTitle>New token</CardTitle>
          </CardHeader>
          <CardContent>
            <CreateTokenForm />
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-0">
            <TokensTable tokens={tokens} showOwner={admin} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
