// Server part of the labelling panel: loads what the panel needs (schemas, visible labels, queue reservation) so the
// trajectory page mounts labelling with one line.
import type { ServiceContext } from "@/lib/services/context";
import { getLabellingView } from "@/lib/services/annotation/labelling-view";
import { LabelPanel } from "./label-panel";

export async function LabellingSection({
  ctx,
  trajectoryId,
  stepCount,
  forkSteps,
  slotId,
}: {
  ctx: ServiceContext;
  trajectoryId: string;
  stepCount: number;
  forkSteps: number[];
  slotId?: string;
}) {
  const view = await getLabellingView(ctx, trajectoryId, { slotId });
  return (
    <LabelPanel
      key={`${trajectoryId}:${slotId ?? ""}`}
      trajectoryId={trajectoryId}
      stepCount={stepCount}
      forkSteps={forkSteps}
      view={view}
    />
  );
}
