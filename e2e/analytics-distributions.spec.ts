import { expect, test } from "@playwright/test";
import fs from "node:fs";

const count = (n: number) => `${n.toLocaleString("en-US")} trajectories`;

test("the length histogram covers every trajectory and each bar opens exactly its trajectories", async ({ page }) => {
  await page.goto("/trajectories");
  const total = Number((await page.getByTestId("table-total").innerText()).replace(/[^0-9]/g, ""));
  expect(total).toBeGreaterThan(0);

  await page.goto("/analytics");
  const card = page.getByTestId("length-card");
  await expect(card).toBeVisible();
  const bars = card.locator("[data-testid^=hist-bar-]");
  await expect(bars.first()).toBeVisible();
  const values = await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-value"))));
  expect(values.reduce((s, v) => s + v, 0)).toBe(total);

  const bar = card.getByTestId("hist-bar-a").first();
  const value = Number(await bar.getAttribute("data-value"));
  await bar.click();
  await expect(page).toHaveURL(/\/trajectories\?.*steps=\d+\.\.\d+/);
  await expect(page).toHaveURL(/attempt=no/);
  await expect(page.getByTestId("table-total")).toHaveText(count(value));
});

test("every distribution has a table view and exports CSV", async ({ page }) => {
  await page.goto("/analytics");
  const section = page.getByTestId("distributions");
  await expect(section.getByRole("heading", { name: "Distributions" })).toBeVisible();
  for (const [id, file, header] of [
    ["length-card", "trajectory-length.csv", "from,to,originalRollouts,recoveryAttempts"],
    ["first-error-card", "first-error-step.csv", "from,to,originalRollouts,recoveryAttempts"],
    ["attempts-card", "attempts-to-recover.csv", "attemptsNeeded,forkPoints"],
    ["reward-card", "sibling-group-reward.csv", "meanRewardFrom,meanRewardTo,groups,groupsWithoutSpread"],
  ] as const) {
    const card = section.getByTestId(id);
    await card.getByRole("button", { name: "Table" }).click();
    await expect(card.getByRole("table")).toBeVisible();
    const [csv] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "CSV" }).click()]);
    expect(csv.suggestedFilename()).toBe(file);
    const lines = fs
      .readFileSync((await csv.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(header);
    // The table shows one row per CSV row.
    await expect(card.getByRole("table").locator("tbody tr")).toHaveCount(lines.length - 1);
  }
});

test("an attempts-to-recover bar opens one row per fork point it counts", async ({ page }) => {
  await page.goto("/analytics");
  const card = page.getByTestId("attempts-card");
  const bar = card.getByTestId("hist-bar-a").first();
  await expect(bar).toBeVisible();
  const value = Number(await bar.getAttribute("data-value"));
  expect(value).toBeGreaterThan(0);
  await bar.click();
  await expect(page).toHaveURL(/\/trajectories\?.*recovered=(\d+|never)/);
  await expect(page.getByTestId("table-total")).toHaveText(count(value));
  await expect(page.getByTestId("drill-filter-recovered")).toBeVisible();
});
