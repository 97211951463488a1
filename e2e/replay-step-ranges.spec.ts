import { expect, test, type Page } from "@playwright/test";
import type { TrajectoryInput } from "../lib/domain/trajectory";

// A long trajectory's step list and transcript are not in the page's HTML: they arrive in ranges as they are
// scrolled (GET …/replay/steps and …/steps). Far steps appear only after scrolling, and clicking one seeks there.

const STEPS = 400;
const ID = "e2e-long-step-list";
const command = (i: number) => `echo step-${i}-marker`;

function longTrajectory(): TrajectoryInput {
  return {
    format: "reterm.trajectory.v1",
    id: ID,
    task: { benchmark: "e2e", id: "long-step-list", name: "Long step list" },
    run: { name: "e2e-long" },
    outcome: "failed",
    steps: Array.from({ length: STEPS }, (_, i) => ({
      source: "agent" as const,
      offsetMs: i * 2000,
      action: command(i),
      observation: `output of step ${i}`,
      exitCode: 0,
    })),
  };
}

async function ingest(page: Page) {
  const res = await page.request.post("/api/v1/trajectories", {
    data: `${JSON.stringify(longTrajectory())}\n`,
    headers: { "content-type": "application/json" },
  });
  expect(res.ok()).toBe(true);
  await expect
    .poll(async () => (await page.request.get(`/api/v1/trajectories/${ID}/replay/steps?from=0&to=1`)).status(), { timeout: 30_000 })
    .toBe(200);
}

test("the step list loads far steps as it is scrolled, and clicking one seeks there", async ({ page }) => {
  await ingest(page);
  // Not in the HTML: only the lines around the opening point come with the page.
  const html = await (await page.request.get(`/trajectories/${ID}`)).text();
  expect(html).toContain(command(5));
  expect(html).not.toContain(command(390));

  await page.goto(`/trajectories/${ID}`);
  const list = page.getByTestId("replay-step-list");
  // Generous first wait: the e2e server shares a loaded machine.
  await expect(list.locator('[data-testid="replay-step"][data-step="0"]')).toBeVisible({ timeout: 30_000 });
  await expect(list.locator('[data-step="390"]')).toHaveCount(0);

  const fetched: string[] = [];
  page.on("request", (r) => r.url().includes("/replay/steps?") && fetched.push(r.url()));
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const far = list.locator('[data-testid="replay-step"][data-step="390"]');
  await expect(far).toContainText(command(390), { timeout: 15_000 });
  expect(fetched.some((u) => /from=300&to=400/.test(u))).toBe(true);

  // A few seconds pass before playback following would scroll the list again; the click seeks at once.
  await far.click();
  const replay = page.getByTestId("replay");
  await expect(replay).toHaveAttribute("data-step", "390", { timeout: 15_000 });
  await expect(replay).toHaveAttribute("data-settled", "true");
  await expect.poll(() => page.evaluate(() => window.__retermTerminals?.main?.screen() ?? "")).toContain(command(390));
  await expect(list.locator('[data-testid="replay-step"][aria-current="step"]')).toHaveAttribute("data-step", "390");
});

test("a deep link's step list shows the linked step at once", async ({ page }) => {
  await ingest(page);
  await page.goto(`/trajectories/${ID}?step=300`);
  const list = page.getByTestId("replay-step-list");
  // The list follows the player from the first frame (it used to wait 4 s after navigation, as if the reader had
  // just scrolled it, and a deep link opened with the list at step 0).
  const current = list.locator('[data-testid="replay-step"][aria-current="step"]');
  await expect(current).toHaveAttribute("data-step", "300", { timeout: 30_000 });
  await expect(current).toBeInViewport();
  await expect(current).toContainText(command(300));
});

test("the transcript arrives after the page and loads more steps as the reader scrolls to its end", async ({ page }) => {
  await ingest(page);
  await page.goto(`/trajectories/${ID}`);
  const transcript = page.getByTestId("transcript");
  await transcript.scrollIntoViewIfNeeded();
  const steps = transcript.getByTestId("step");
  await expect(steps.first()).toContainText(command(0), { timeout: 30_000 });
  await expect(steps).toHaveCount(50);
  await steps.last().scrollIntoViewIfNeeded();
  await expect(steps).toHaveCount(100, { timeout: 15_000 });
  await expect(steps.nth(99)).toContainText(command(99));
  await expect(transcript).toHaveAttribute("data-loaded-to", "100");

  // A deep link to a step opens the transcript at that step's page.
  await page.goto(`/trajectories/${ID}?step=120`);
  await page.getByTestId("transcript").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("transcript").getByTestId("step").first()).toContainText(command(100), { timeout: 30_000 });
  await expect(page.getByTestId("transcript")).toHaveAttribute("data-loaded-from", "100");
});
