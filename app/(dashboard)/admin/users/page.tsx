import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CreateUserForm } from "@/components/accounts/create-user-form";
import { UserRowActions } from "@/components/accounts/user-row-actions";
import { UserStateActions } from "@/components/accounts/user-state-actions";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { listUsers, type UserListing } from "@/lib/services/accounts/manage-users";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

/** How an account signs in, in words: a password-less account is never left unexplained. */
function SignIn({ u }: { u: UserListing }) {
  if (u.state === "deleted") return <Badge variant="outline">deleted</Badge>;
  const state = u.state === "disabled" ? <Badge variant="destructive">disabled</Badge> : null;
  if (u.hasPassword)
    return (
      <span className="flex flex-wrap gap-1">
        {state}
        <Badge variant="success">password set</Badge>
      </span>
    );
  return (
    <span className="flex flex-col gap-1">
      <span className="flex flex-wrap gap-1">
        {state}
        <Badge variant="outline">{u.localAccount ? "local / CLI account" : "no password"}</Badge>
      </span>
      <span className="text-xs text-muted-foreground">
        {u.localAccount
          ? "The account local mode and the command line act as (RETERM_USER). It cannot sign in; reset its password to let it."
          : "Cannot sign in (e.g. an annotator named in imported labels). Reset the password to let them."}
      </span>
    </span>
  );
}

export default async function UsersPage() {
  const users = await listUsers(await getPageContext(PAGE_PERMISSIONS["/admin/users"]));
  return (
    <>
      <PageHeader
        title="Users"
        description="Accounts and roles: admin (everything), researcher (import, curate, export, queues), annotator (assigned queues), viewer (read-only)."
      />
      <div className="flex flex-col gap-5">
        <Card>
          <CardHeader>
            <CardTitle>New user</CardTitle>
          </CardHeader>
          <CardContent>
            <CreateUserForm />
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-0">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Sign-in</TableHead>
                  <TableHead>Tokens</TableHead>
                  <TableHead>Role and password</TableHead>
                  <TableHead>Account</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {users.map((u) => (
                  <TableRow
                    key={u.id}
                    data-testid="user-row"
                    data-state={u.state}
                    className={u.state === "active" ? undefined : "text-muted-foreground"}
                  >
                    <TableCell className="font-medium">{u.name}</TableCell>
                    <TableCell>
                      <SignIn u={u} />
                    </TableCell>
                    <TableCell>{u.activeTokens}</TableCell>
                    <TableCell>{u.state === "deleted" ? null : <UserRowActions name={u.name} role={u.role} />}</TableCell>
                    <TableCell>
                      {u.state === "deleted" ? null : <UserStateActions name={u.name} disabled={u.state === "disabled"} />}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
