// Server part of the trajectory page's replay: waits for the opening data (index, start point, the step lines
// around it, the opening screen) and asks the browser to start fetching the first frame's range with the HTML,
// before any script runs — for a deep link (`?t=`, `?step=`) too, whose start point only the server's index can
// resolve. The opening screen arrives as HTML (TerminalPoster), with the test probe that reads it.
import { headers } from "next/headers";
import { preload } from "react-dom";
import { packReplayIndex } from "@/lib/domain/replay/packed-index";
import type { ReplayOpening } from "@/lib/services/replay";
import { posterProbeScript } from "@/components/terminal/terminal-poster";
import { replayRangeUrl } from "./fetch-range";
import { ReplayView, type ReplayFacts } from "./replay-view";

export async function ReplaySection({ opening, facts }: { opening: Promise<ReplayOpening>; facts: ReplayFacts }) {
  const o = await opening;
  if (o.index.chunks.length)
    preload(replayRangeUrl(o.index.trajectoryId, o.startMs, o.startMs, true), { as: "fetch", crossOrigin: "anonymous" });
  // The proxy's CSP nonce (app/layout.tsx): the probe is an inline script, static text.
  const nonce = o.poster ? ((await headers()).get("x-nonce") ?? undefined) : undefined;
  return (
    <>
      {o.poster ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: posterProbeScript("main") }} /> : null}
      {/* The timing index goes packed (a fraction of the JSON): it is in the HTML and the browser keeps it. */}
      <ReplayView opening={{ ...o, index: packReplayIndex(o.index) }} facts={facts} />
    </>
  );
}
