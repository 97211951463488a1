// The poster puts recorded terminal output into the page's HTML: it must arrive as text, never as markup.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { posterProbeScript, TerminalPoster } from "../../components/terminal/terminal-poster.tsx";
import { Player } from "../../lib/services/replay/headless/differential.ts";
import { screenPoster } from "../../lib/services/replay/headless/poster.ts";

describe("terminal poster", () => {
  it("renders hostile output as escaped text", async () => {
    const p = new Player(60, 3);
    await p.write(`<script>alert(1)</script>\r\n\u001b[31m<img src=x onerror=alert(2)>&amp;"'\u001b[0m\r\n</div><div data-row>`);
    const poster = screenPoster(p.term);
    p.dispose();
    const html = renderToStaticMarkup(createElement(TerminalPoster, { id: "main", poster }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;&amp;amp;&quot;&#x27;");
    // Three rows, as the terminal has: the fake closing tags did not add one.
    expect(html.match(/data-row=""/g)).toHaveLength(3);
    expect(html).toContain('style="color:#f87171"');
  });

  it("registers probes that read the poster's rows and hold seeks for the player", async () => {
    const rows = [{ textContent: "$ ls  " }, { textContent: "a.txt" }];
    const page = {
      document: {
        querySelector: () => ({
          querySelectorAll: () => rows,
          getAttribute: (n: string) => (n === "data-cols" ? "120" : "36"),
          closest: () => null,
        }),
      },
    } as unknown as {
      __retermTerminals: Record<string, { screen(): string; size(): unknown }>;
      __retermPlayers: Record<string, { seek(ms: number): Promise<void>; queued: { ms: number; resolve(): void }[] }>;
    };
    // The script runs with `window` and `document` of this stand-in page.
    new Function("window", "document", posterProbeScript("main"))(page, (page as unknown as { document: unknown }).document);
    expect(page.__retermTerminals.main!.screen()).toBe("$ ls  \na.txt");
    expect(page.__retermTerminals.main!.size()).toEqual({ cols: 120, rows: 36 });
    let done = false;
    const seek = page.__retermPlayers.main!.seek(5000).then(() => (done = true));
    expect(page.__retermPlayers.main!.queued.map((q) => q.ms)).toEqual([5000]);
    await Promise.resolve();
    expect(done).toBe(false);
    page.__retermPlayers.main!.queued[0]!.resolve();
    await seek;
    expect(done).toBe(true);
  });

  it("reads nothing while the poster is hidden (a streamed boundary not revealed yet)", () => {
    let visible = false;
    const rows = [{ textContent: "$ ls" }];
    // Inside React's `<div hidden id="S:…">` until the boundary is revealed.
    const poster = {
      querySelectorAll: () => rows,
      getAttribute: () => "80",
      closest: (sel: string) => (sel === "[hidden]" && !visible ? {} : null),
    };
    const page = { document: { querySelector: () => poster } } as unknown as {
      __retermTerminals: Record<string, { screen(): string; text(): string }>;
    };
    new Function("window", "document", posterProbeScript("main"))(page, (page as unknown as { document: unknown }).document);
    expect(page.__retermTerminals.main!.screen()).toBe("");
    expect(page.__retermTerminals.main!.text()).toBe("");
    visible = true;
    expect(page.__retermTerminals.main!.screen()).toBe("$ ls");
  });
});
