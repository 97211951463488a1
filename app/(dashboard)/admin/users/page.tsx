import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CreateUserForm } from "@/components/accounts/create-user-form";
import { UserRowActions } from "@/components/accounts/user-row-actions";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { listUsers } from "@/lib/services/accounts/manage-users";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const users = await listUsers(await getPageContext(PAGE_PERMISSIONS["/admin/users"]));
  return (
    <>
      <PageHeader title="Users" description="Accounts and roles: admin (everything), researcher (import, curate, export, queues), annotator (assigned queues), viewer (read-only)." />
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
                </TableRow>
              </TableHeader>
              <TableBody>
                {users.map((u) => (
                  <TableRow key={u.id} data-testid="user-row">
                    <TableCell className="font-medium">{u.name}</TableCell>
                    <TableCell>{u.hasPassword ? <Badge variant="success">password set</Badge> : <Badge variant="outline">no password</Badge>}</TableCell>
                    <TableCell>{u.activeTokens}</TableCell>
                    <TableCell>
                      <UserRowActions name={u.name} role={u.role} />
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
