import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { seededTrajectories } from "./helpers/seed";
import { stripAnsi } from "../lib/domain/ansi";
import type { StepInput, TrajectoryInput } from "../lib/domain/trajectory";

// Expectations come from the same generator call e2e/serve.ts seeds with, plus e2e/fixtures/malicious-output.*.
// Trajectories are opened by their client ids (/trajectories/gen-42-7), which the page resolves.

const lastLine = (s: StepInput) =>
  stripAnsi(s.observation ?? "")
    .split("\n")
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .at(-1) ?? "";
const isPlainCommand = (s: StepInput) =>
  !!s.action && !s.action.includes("\n") && s.action.length < 60 && lastLine(s).length > 0 && lastLine(s).length < 100;

async function waitForStep(page: Page, step: number) {
  const replay = page.getByTestId("replay");
  await expect(replay).toHaveAttribute("data-step", String(step));
  await expect(replay).toHaveAttribute("data-settled", "true");
}

/** Hovers, then clicks, the middle of the first on-screen occurrence of `text` in the main terminal's rows. */
async function clickTerminalText(page: Page, text: string) {
  const box = await page.evaluate((needle) => {
    const rows = document.querySelector("[data-testid='replay'] .xterm-rows");
    const walker = document.createTreeWalker(rows ?? document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent?.indexOf(needle) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + needle.length);
      const r = range.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }
    return null;
  }, text);
  expect(box, `"${text}" on screen`).not.toBeNull();
  await page.mouse.move(box!.x - 20, box!.y);
  await page.mouse.move(box!.x, box!.y, { steps: 3 });
  await page.mouse.click(box!.x, box!.y);
}

const terminalText = (page: Page, id = "main") => page.evaluate((k) => window.__retermTerminals?.[k]?.text() ?? "", id);

function pickStep(t: TrajectoryInput, from = 3): number {
  const i = t.steps.findIndex((s, k) => k >= from && isPlainCommand(s));
  expect(i).toBeGreaterThan(0);
  return i;
}

test("a deep link opens a session rebuilt from steps at that step, with its command and output in the terminal", async ({ page }) => {
  const t = seededTrajectories().find((x) => !x.recording && x.steps.length > 10 && !x.fork)!;
  const k = pickStep(t);
  await page.goto(`/trajectories/${t.id}?step=${k}`);
  await expect(page.getByTestId("replay")).toHaveAttribute("data-source", "synthesized");
  await waitForStep(page, k);
  const text = await terminalText(page);
  expect(text).toContain(t.steps[k]!.action!);
  // The screen ends exactly after step k's output: nothing of step k+1 has been typed yet.
  expect(
    text
      .split("\n")
      .map((l) => l.trimEnd())
      .filter(Boolean)
      .at(-1),
  ).toBe(lastLine(t.steps[k]!));
  await expect(page.locator('[data-testid="replay-step"][aria-current="step"]')).toHaveAttribute("data-step", String(k));
});

test("a recorded session replays at a step; keyboard steps, plays and pauses", async ({ page }) => {
  const t = seededTrajectories().find((x) => x.recording && x.steps.filter(isPlainCommand).length > 4)!;
  const k = pickStep(t);
  await page.goto(`/trajectories/${t.id}?step=${k}`);
  await expect(page.getByTestId("replay")).toHaveAttribute("data-source", "recording");
  await waitForStep(page, k);
  const text = await terminalText(page);
  expect(text).toContain(t.steps[k]!.action!);
  expect(text).toContain(lastLine(t.steps[k]!));

  await page.keyboard.press("]");
  await waitForStep(page, k + 1);
  await page.keyboard.press("[");
  await waitForStep(page, k);
  await page.keyboard.press(" ");
  await expect(page.getByTestId("replay")).toHaveAttribute("data-status", "playing");
  await page.keyboard.press(" ");
  await expect(page.getByTestId("replay")).toHaveAttribute("data-status", "paused");

  await page.goto(`/trajectories/${t.id}?t=3.5`);
  await expect(page.getByTestId("replay")).toHaveAttribute("data-rec-ms", "3500");
});

test("seeking to a fork point shows the terminal as it was when the attempts branched", async ({ page }) => {
  const all = seededTrajectories();
  const attempt = all.find((x) => x.fork && all.find((p) => p.id === x.fork!.parentId && !p.recording))!;
  const parent = all.find((p) => p.id === attempt.fork!.parentId)!;
  const fork = attempt.fork!.stepIndex;
  await page.goto(`/trajectories/${parent.id}`);
  await expect(page.getByTestId("replay")).toHaveAttribute("data-settled", "true");
  await expect(page.getByTestId("marker-fork")).toHaveCount(1);
  await page.keyboard.press("f");
  await waitForStep(page, fork);
  const lines = (await terminalText(page))
    .split("\n")
    .map((l) => l.trimEnd())
    .filter(Boolean);
  expect(lines.at(-1)).toBe(lastLine(parent.steps[fork]!));
  expect(lines.join("\n")).toContain(parent.steps[fork]!.action!.split("\n")[0]!);

  // The timeline marker does the same from anywhere.
  await page.goto(`/trajectories/${parent.id}?step=0`);
  await waitForStep(page, 0);
  await page.getByTestId("marker-fork").click();
  await waitForStep(page, fork);
});

test("the sibling view replays two attempts from the fork point side by side, with a command diff", async ({ page }) => {
  const all = seededTrajectories();
  const parent = all.find((p) => all.filter((a) => a.fork?.parentId === p.id).length >= 2)!;
  const attempts = all.filter((a) => a.fork?.parentId === parent.id).slice(0, 2);
  const fork = attempts[0]!.fork!.stepIndex;
  await page.goto(`/trajectories/${parent.id}`);
  const tree = page.getByTestId("fork-tree");
  await tree.getByRole("checkbox").nth(0).check();
  await tree.getByRole("checkbox").nth(1).check();
  await tree.getByRole("button", { name: "Compare selected" }).click();
  await expect(page).toHaveURL(/\/compare\?fork=\d+&attempts=.+&attempts=/);
  await expect(page.getByTestId("compared-attempt")).toHaveCount(2);
  await expect(page.getByTestId("shared-prefix")).toContainText(`steps #0–#${fork}`);
  await expect(page.getByTestId("command-diff")).toBeVisible();

  const ids = await page.getByTestId("compared-attempt").evaluateAll((els) => els.map((e) => e.getAttribute("data-attempt")!));
  const forkLine = lastLine(parent.steps[fork]!);
  for (const id of ids) await expect.poll(() => terminalText(page, `attempt-${id}`)).toContain(forkLine);

  // Scrub to the end: each terminal now shows its own attempt's last command.
  const scrubber = page.getByTestId("compare-scrubber");
  await scrubber.fill(await scrubber.getAttribute("max").then((m) => m ?? "0"));
  const titles = await page.getByTestId("compared-attempt").locator("header a").allTextContents();
  for (const [i, id] of ids.entries()) {
    const attempt = attempts.find((a) => `Attempt #${a.fork!.attemptIndex! + 1}` === titles[i])!;
    const last = attempt.steps
      .filter((s) => s.action)
      .at(-1)!
      .action!.split("\n")[0]!;
    await expect.poll(() => terminalText(page, `attempt-${id}`)).toContain(last);
  }
});

/** Uploads e2e/fixtures/malicious-output.reterm.jsonl.gz through the import API, as a user would (idempotent). */
async function importMaliciousFixture(page: Page) {
  const data = fs.readFileSync(path.join(import.meta.dirname, "fixtures/malicious-output.reterm.jsonl.gz"));
  const res = await page.request.post("/api/imports?name=malicious-output.reterm.jsonl.gz", {
    data,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.ok()).toBe(true);
  const result = JSON.parse((await res.text()).trim().split("\n").at(-1)!);
  expect(result).toMatchObject({ type: "result", failed: 0 });
  expect(result.imported + result.duplicates).toBe(2);
}

test("malicious output is neutralized: no clipboard, title, script or link escapes, and a 10 MB line does not freeze the page", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __clipboardWrites: number };
    w.__clipboardWrites = 0;
    if (navigator.clipboard) navigator.clipboard.writeText = async () => void w.__clipboardWrites++;
  });
  await importMaliciousFixture(page);
  for (const id of ["e2e-malicious-steps", "e2e-malicious-cast"]) {
    await expect
      .poll(async () => (await page.request.get(`/api/v1/trajectories/${id}/steps?from=0&to=1`)).status(), { timeout: 30_000 })
      .toBe(200);
    await page.goto(`/trajectories/${id}?step=1`);
    await waitForStep(page, 1);
    const text = await terminalText(page);
    for (const safe of ["SAFE-MARKER-1", "SAFE-MARKER-2", "js-link", "web-link", `<img src=x onerror="window.__pwned=1"><script>`])
      expect(text).toContain(safe);
    expect(text).not.toContain("PWNED-TITLE");
    expect(text).not.toContain("52;c;");
    expect(await page.title()).not.toContain("PWNED");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    // OSC 8 links: clicking the https one opens it (so the click reaches the link handler), the javascript: one does nothing.
    await page.evaluate(() => {
      const w = window as unknown as { __opened: string[] };
      w.__opened = [];
      window.open = (url?: string | URL) => {
        w.__opened.push(String(url));
        return null;
      };
    });
    await clickTerminalText(page, "web-link");
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __opened: string[] }).__opened))
      .toEqual(["https://example.com/docs"]);
    await clickTerminalText(page, "js-link");
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __opened: string[] }).__opened)).toEqual(["https://example.com/docs"]);
    // The clicks focused the terminal's input; the player's keys act from the page.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await page.evaluate(() => (window as unknown as { __clipboardWrites: number }).__clipboardWrites)).toBe(0);

    // Step 2 prints one 10 MB line: the terminal shows it capped and the page keeps answering.
    await page.keyboard.press("]");
    await waitForStep(page, 2);
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    expect(Date.now() - t0).toBeLessThan(1000);
    const after = await terminalText(page);
    // Booleans, not the text: a failure should not print megabytes of "A".
    expect({
      capped: after.includes("line truncated"),
      continues: after.includes("DONE-AFTER-LONG-LINE"),
      small: after.length < 200_000,
    }).toEqual({ capped: true, continues: true, small: true });
  }
  // The transcript shows the HTML as text too.
  await expect(page.getByTestId("step-output").first()).toContainText("<script>window.__pwned=2</script>");
});
