// The poster puts recorded terminal output into the page's HTML: it must arrive as text, never as markup.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TerminalPoster } from "../../components/terminal/terminal-poster.tsx";
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
});
