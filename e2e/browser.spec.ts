import { expect, test, type Page } from "@playwright/test";
import { seededTrajectories } from "./helpers/seed";
import { stripAnsi } from "../lib/domain/ansi";
import type { TrajectoryInput } from "../lib/domain/trajectory";

// Expectations come from the generator output that e2e/serve.ts seeded. Every check is scoped to one generated
// run, so trajectories other specs add to the seed (fixtures with their own run names) cannot change the numbers.
const all = seededTrajectories();
const runs = [...new Set(all.map((t) => t.run.name))];
const biggestRun = runs.sort((a, b) => all.filter((t) => t.run.name === b).length - all.filter((t) => t.run.name === a).length)[0]!;
const inRun = all.filter((t) => t.run.name === biggestRun);
const stepText = (t: TrajectoryInput) =>
  t.steps.map((s) => stripAnsi([s.action, s.observation, s.reasoning, s.message].filter(Boolean).join("\n")));
const count = (n: number) => `${n.toLocaleString("en-US")} trajectories`;

async function pickFacet(page: Page, facet: string, value: string) {
  await page.getByTestId(`facet-${facet}`).click();
  await page.getByRole("dialog").getByRole("checkbox", { name: value, exact: true }).check();
  await page.keyboard.press("Escape");
}

test("facets, sort and search narrow the table to exactly the matching trajectories", async ({ page }) => {
  await page.goto("/trajectories");
  await pickFacet(page, "Run", biggestRun);
  await expect(page).toHaveURL(/runId=/);
  await expect(page.getByTestId("table-total")).toHaveText(count(inRun.length));

  await pickFacet(page, "Outcome", "failed");
  const failed = inRun.filter((t) => t.outcome === "failed");
  await expect(page.getByTestId("table-total")).toHaveText(count(failed.length));
  await expect(page.getByTestId("facet-Outcome")).toContainText("failed");

  // Sort by steps (descending first), then add reward as a second key with shift-click.
  await page.getByRole("link", { name: "Steps" }).click();
  await expect(page).toHaveURL(/sort=stepCount&dir=desc/);
  const steps = failed.map((t) => t.steps.length).sort((a, b) => b - a);
  await expect(page.getByTestId("trajectory-row").first().getByRole("cell").nth(4)).toHaveText(String(steps[0]));
  await page.getByRole("link", { name: "Reward" }).click({ modifiers: ["Shift"] });
  await expect(page).toHaveURL(/sort=stepCount%2Creward&dir=desc%2Cdesc/);
  await expect(page.getByRole("columnheader", { name: /Reward/ })).toHaveAttribute("aria-sort", "descending");

  // Full-text search within the filtered set: ANSI-stripped command/output text, whole words.
  await page.getByRole("searchbox", { name: "Search steps" }).fill("pip");
  await expect(page).toHaveURL(/q=pip/);
  const withPip = failed.filter((t) => stepText(t).some((s) => /\bpip\b/i.test(s)));
  expect(withPip.length).toBeGreaterThan(0);
  await expect(page.getByTestId("table-total")).toHaveText(count(withPip.length));
  const matches = page.getByTestId("search-match");
  await expect(matches).toHaveCount(Math.min(withPip.length, 25));
  await expect(matches.first().locator("mark").first()).toHaveText(/^pip$/i);

  // A match opens its trajectory at the matching step.
  const label = (await matches.first().textContent()) ?? "";
  const stepIndex = /Step (\d+)/.exec(label)![1];
  await matches.first().click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/[^/?]+\\?step=${stepIndex}`));
});

test("the URL holds the whole view: it survives reload and the back button restores it", async ({ page }) => {
  const model = inRun[0]!.run.model!;
  const want = all.filter((t) => t.run.model === model && t.outcome === "failed" && t.steps.length >= 10);
  expect(want.length).toBeGreaterThan(10);
  const url = `/trajectories?model=${model}&outcome=failed&steps=10..&sort=reward,stepCount&dir=asc,desc&perPage=10&cols=task,run,outcome,reward,stepCount`;
  await page.goto(url);
  const check = async (pageNo: number) => {
    await expect(page.getByTestId("table-total")).toHaveText(count(want.length));
    await expect(page.getByTestId("page-position")).toHaveText(`Page ${pageNo} of ${Math.ceil(want.length / 10)}`);
    await expect(page.getByRole("columnheader")).toHaveText([/Task/, /Run/, /Outcome/, /Reward/, /Steps/]);
    await expect(page.getByRole("columnheader", { name: /Reward/ })).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByTestId("facet-Model")).toContainText(model);
    await expect(page.getByTestId("facet-Steps")).toContainText("10 – …");
  };
  await check(1);
  const firstPage = await page.getByTestId("trajectory-link").allTextContents();

  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/cursor=/);
  await check(2);
  const secondPage = await page.getByTestId("trajectory-link").allTextContents();
  expect(secondPage).toHaveLength(Math.min(10, want.length - 10));

  await page.reload();
  await check(2);
  expect(await page.getByTestId("trajectory-link").allTextContents()).toEqual(secondPage);

  await page.goBack();
  await check(1);
  expect(await page.getByTestId("trajectory-link").allTextContents()).toEqual(firstPage);

  // Hiding a column goes to the URL too.
  await page.getByRole("button", { name: "Columns" }).click();
  await page.getByRole("menuitemcheckbox", { name: "Outcome" }).click();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/cols=task%2Crun%2Creward%2CstepCount/);
  await expect(page.getByRole("columnheader")).toHaveText([/Task/, /Run/, /Reward/, /Steps/]);
});

test("select all matching selects every matching trajectory, not only the page", async ({ page }) => {
  const failed = inRun.filter((t) => t.outcome === "failed");
  expect(failed.length).toBeGreaterThan(2);
  const perPage = Math.ceil(failed.length / 2);
  await page.goto(`/trajectories?perPage=${perPage}`);
  await pickFacet(page, "Run", biggestRun);
  await pickFacet(page, "Outcome", "failed");
  await expect(page.getByTestId("table-total")).toHaveText(count(failed.length));
  await page.getByRole("checkbox", { name: "Select all rows on this page" }).check();
  await expect(page.getByTestId("selection-count")).toHaveText(`${perPage} trajectories selected`);
  await page.getByRole("button", { name: `Select all ${failed.length} matching` }).click();
  await expect(page.getByTestId("selection-count")).toHaveText(`All ${failed.length} matching trajectories selected`);
  // The selection survives paging.
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page.getByTestId("page-position")).toHaveText(/Page 2 of/);
  await expect(page.getByRole("checkbox", { name: "Select row" }).first()).toBeChecked();
  await page.getByRole("button", { name: "Clear selection" }).click();
  await expect(page.getByTestId("selection-count")).toHaveCount(0);
});

test("keyboard: / focuses search, j/k move between rows, Enter opens the active one", async ({ page }) => {
  await page.goto(`/trajectories?outcome=passed&sort=stepCount&dir=asc`);
  await page.waitForLoadState("networkidle");
  // The keys work once React has hydrated the table (its listener is attached in an effect); until then a key press
  // goes nowhere, so press again until the search box takes focus (a handled press focuses it: no second press).
  const search = page.getByRole("searchbox", { name: "Search steps" });
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(search).toBeFocused({ timeout: 250 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press("Escape");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  const rows = page.getByTestId("trajectory-row");
  await expect(rows.nth(1)).toHaveAttribute("data-active", "true");
  const href = await rows.nth(1).getByTestId("trajectory-link").getAttribute("href");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});

test("bad parameters: the page falls back to defaults, the API answers 400 with a clear message", async ({ page, request }) => {
  await page.goto("/trajectories?sort=nope&perPage=100000&page=abc&reward=1..0&q=%20%20");
  await expect(page.getByTestId("trajectory-row")).toHaveCount(25);
  await expect(page.getByTestId("page-position")).toHaveText(/^Page 1 of /);

  for (const [query, message] of [
    ["sort=nope", /^sort: unknown column "nope"/],
    ["reward=1..0", /^reward: bad range: min 1 is greater than max 0/],
    ["perPage=5000", /^perPage: must be at most 100/],
  ] as const) {
    const res = await request.get(`/api/v1/trajectories?${query}`);
    expect(res.status()).toBe(400);
    expect((await res.json()).error.message).toMatch(message);
  }
  const ok = await request.get(`/api/v1/trajectories?runId=x&perPage=100`);
  expect(ok.status()).toBe(200);
});

test("a task page shows pass@k by run and every trajectory of the task", async ({ page }) => {
  const taskName = inRun[0]!.task.name!;
  const ofTask = all.filter((t) => t.task.name === taskName);
  await page.goto("/tasks");
  await page.getByRole("link", { name: taskName, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: taskName })).toBeVisible();
  const taskRuns = new Set(ofTask.map((t) => t.run.name));
  await expect(page.getByTestId("pass-at-k-row")).toHaveCount(taskRuns.size);
  await expect(page.getByTestId("table-total")).toHaveText(count(ofTask.length));

  await page.goto("/runs");
  await page.getByRole("link", { name: biggestRun, exact: true }).click();
  const roots = inRun.filter((t) => !t.fork);
  await expect(page.getByTestId("run-rollouts")).toHaveText(String(roots.length));
  await expect(page.getByTestId("run-pass-rate")).toHaveText(
    `${Math.round((roots.filter((t) => t.outcome === "passed").length / roots.length) * 100)}%`,
  );
});
