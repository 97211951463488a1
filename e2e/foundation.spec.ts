import { expect, test } from "@playwright/test";
import { seededTrajectories } from "./helpers/seed";
import { stripAnsi } from "../lib/domain/ansi";

test("the list shows the seeded trajectories and opens one with its commands and outputs", async ({ page }) => {
  const all = seededTrajectories();
  await page.goto("/");
  await expect(page).toHaveURL(/\/trajectories/);
  await expect(page.getByRole("heading", { name: "Trajectories" })).toBeVisible();
  await expect(page.getByTestId("table-total")).toHaveText(`${all.length} trajectories`);

  // Sort by steps, descending, then open the longest trajectory.
  await page.getByRole("link", { name: "Steps" }).click();
  await expect(page).toHaveURL(/sort=stepCount&dir=desc/);
  const longest = Math.max(...all.map((t) => t.steps.length));
  await expect(page.getByTestId("trajectory-row").first().getByRole("cell").nth(4)).toHaveText(String(longest));

  await page.getByTestId("trajectory-link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/[a-z0-9]+/);
  const taskName = await page.getByRole("heading", { level: 1 }).textContent();
  const candidates = all.filter((t) => t.steps.length === longest && t.task.name === taskName);
  expect(candidates.length).toBeGreaterThan(0);

  const steps = page.getByTestId("step");
  await expect(steps).toHaveCount(longest);
  const t = candidates[0]!;
  const firstCommandStep = t.steps.findIndex((s) => s.action);
  await expect(steps.nth(firstCommandStep).getByTestId("step-command")).toContainText(t.steps[firstCommandStep]!.action!.split("\n")[0]!);
  const outputLine = stripAnsi(t.steps[firstCommandStep]!.observation!).split("\n")[1]!.trim();
  await expect(steps.nth(firstCommandStep).getByTestId("step-output")).toContainText(outputLine);
});

test("navigation reaches every area and the theme can be switched", async ({ page }) => {
  await page.goto("/trajectories");
  for (const area of ["Tasks", "Runs", "Annotation", "Datasets", "Analytics", "Import"]) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: area }).click();
    await expect(page.getByRole("heading", { level: 1, name: area })).toBeVisible();
  }
  // The toggle cycles light → dark → system; each click must change what the page is painted in.
  const toggle = page.getByRole("button", { name: /Theme:/ });
  await expect(toggle).toHaveAttribute("aria-label", /^Theme: system/);
  await toggle.click();
  await expect(page.locator("html")).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(page.locator("html")).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await toggle.click();
  await expect(page.locator("html")).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(page.locator("html")).not.toHaveClass(/(^|\s)light(\s|$)/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-label", /^Theme: system/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(background);
});

test("an unknown trajectory shows a helpful not-found page", async ({ page }) => {
  await page.goto("/trajectories/does-not-exist");
  await expect(page.getByText("Trajectory not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to all trajectories" })).toBeVisible();
});
