import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TokenSummary } from "@/lib/services/accounts/api-tokens";
import { RevokeTokenButton } from "./revoke-token-button";

const when = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "—");

export function TokensTable({ tokens, showOwner }: { tokens: TokenSummary[]; showOwner: boolean }) {
  if (!tokens.length) return <p className="text-sm text-muted-foreground">No API tokens yet.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          {showOwner ? <TableHead>Owner</TableHead> : null}
          <TableHead>Created</TableHead>
          <TableHead>Last used</TableHead>
          <TableHead>State</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.map((t) => (
          <TableRow key={t.id} data-testid="token-row">
            <TableCell className="font-medium">{t.name}</TableCell>
            {showOwner ? <TableCell>{t.userName}</TableCell> : null}
            <TableCell>{when(t.createdAt)}</TableCell>
            <TableCell>{when(t.lastUsedAt)}</TableCell>
            <TableCell>{t.revokedAt ? <Badge variant="outline">revoked</Badge> : <Badge variant="success">active</Badge>}</TableCell>
            <TableCell>{t.revokedAt ? null : <RevokeTokenButton id={t.id} name={t.name} />}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
