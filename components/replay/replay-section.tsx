// Server part of the trajectory page's replay: waits for the opening data (index, start point, the step lines
// around it) and asks the browser to start fetching the first frame's range with the HTML, before any script
// runs — for a deep link (`?t=`, `?step=`) too, whose start point only the server's index can resolve.
import { preload } from "react-dom";
import type { ReplayOpening } from "@/lib/services/replay";
import { replayRangeUrl } from "./fetch-range";
import { ReplayView, type ReplayFacts } from "./replay-view";

export async function ReplaySection({ opening, facts }: { opening: Promise<ReplayOpening>; facts: ReplayFacts }) {
  const o = await opening;
  if (o.index.chunks.length) preload(replayRangeUrl(o.index.trajectoryId, o.startMs, o.startMs, true), { as: "fetch", crossOrigin: "anonymous" });
  return <ReplayView opening={o} facts={facts} />;
}
