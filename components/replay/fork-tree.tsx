// Parent → fork step → recovery attempts, several levels deep, each attempt with its outcome, reward, length and
// labels. The current trajectory is highlighted, so an attempt shows its parent and siblings. Attempts of a fork
// can be picked for the side-by-side comparison with a plain GET form (works without JavaScript).
// Links do not prefetch: a family can hold hundreds of attempts, and each prefetch renders a whole replay page.
import Link from "next/link";
import { GitCompare, GitFork } from "lucide-react";
import { LinkPending } from "@/components/ui/link-pending";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { OutcomeBadge } from "@/components/trajectories/outcome-badge";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { replayHref } from "@/lib/domain/replay/player-options";
import { formatReward } from "@/lib/format";
import type { ForkTreeNode } from "@/lib/services/browse/view-trajectory";
import { cn } from "@/lib/utils";

function labelText(label: string): string {
  const [key, value = ""] = label.split("=");
  return key === "error-category" ? errorCategoryLabel(value) : label.replace("=", ": ");
}

function NodeLine({ node, currentId, compareForm }: { node: ForkTreeNode; currentId: string; compareForm?: string }) {
  const current = node.id === currentId;
  return (
    <div
      className={cn(
        "flex flex-wrap items-center gap-2 rounded-md border px-2 py-1.5 text-sm",
        current ? "border-primary bg-primary/5" : "bg-card",
      )}
      data-testid="fork-tree-node"
      data-current={current}
    >
      {compareForm ? (
        <input
          type="checkbox"
          form={compareForm}
          name="attempts"
          value={node.id}
          aria-label={`Select attempt ${(node.attemptIndex ?? 0) + 1} for comparison`}
          className="size-3.5"
        />
      ) : null}
      <Link prefetch={false} href={`/trajectories/${node.id}`} className="font-medium hover:underline">
        {node.attemptIndex !== null ? `Attempt #${node.attemptIndex + 1}` : "Root trajectory"}
        <LinkPending />
      </Link>
      {current ? <Badge variant="primary">this trajectory</Badge> : null}
      <OutcomeBadge outcome={node.outcome} />
      <span className="text-xs text-muted-foreground">
        r={formatReward(node.reward)} · {node.stepCount} steps
      </span>
      {node.firstErrorCategory ? <Badge variant="outline">{errorCategoryLabel(node.firstErrorCategory)}</Badge> : null}
      {node.labels.map((l) => (
        <Badge key={l} variant="default">
          {labelText(l)}
        </Badge>
      ))}
    </div>
  );
}

/** The fork points of a node and their attempts (recursively). Checkboxes point at their fork's form by id, so
 *  nested subtrees never nest forms. */
function Forks({ node, currentId }: { node: ForkTreeNode; currentId: string }) {
  return node.forks.map((f) => {
    const formId = `compare-${f.id}`;
    const pickable = f.attempts.length > 1;
    return (
      <div key={f.id} className="ml-3 flex flex-col gap-2 border-l-2 border-primary/30 pl-3" data-testid="fork-tree-fork">
        <form
          id={formId}
          action={`/trajectories/${node.id}/compare`}
          method="get"
          className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground"
        >
          <input type="hidden" name="fork" value={f.stepIndex} />
          <GitFork className="size-3.5 text-primary" aria-hidden />
          <Link prefetch={false} className="font-medium text-foreground hover:underline" href={replayHref(node.id, { step: f.stepIndex })}>
            Fork after step #{f.stepIndex}
          </Link>
          {f.errorCategory ? <span>· {errorCategoryLabel(f.errorCategory)}</span> : null}
          <span>· {f.attempts.length} attempts</span>
          {pickable ? (
            <Button type="submit" variant="outline" size="sm" className="ml-auto h-7">
              <GitCompare /> Compare selected
            </Button>
          ) : null}
        </form>
        {f.attempts.map((a) => (
          <div key={a.id} className="flex flex-col gap-2">
            <NodeLine node={a} currentId={currentId} compareForm={pickable ? formId : undefined} />
            <Forks node={a} currentId={currentId} />
          </div>
        ))}
      </div>
    );
  });
}

export async function ForkTree({ tree, currentId }: { tree: Promise<{ root: ForkTreeNode; truncated: boolean }>; currentId: string }) {
  const { root, truncated } = await tree;
  return (
    <Card data-testid="fork-tree">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GitFork className="size-4" aria-hidden /> Fork tree
        </CardTitle>
        <p className="text-xs text-muted-foreground">
          Recovery attempts branch from a failure state (fork point) of their parent. Tick two or more attempts of a fork to replay them
          side by side.
        </p>
      </CardHeader>
      <CardContent className="flex max-h-[32rem] flex-col gap-2 overflow-auto">
        <NodeLine node={root} currentId={currentId} />
        <Forks node={root} currentId={currentId} />
        {truncated ? (
          <p className="text-xs text-muted-foreground">Deeper levels are not shown; open an attempt to see its own forks.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
