import { expect, test } from "@playwright/test";

// The e2e seed has two annotators' labels on the failed trajectories (e2e/helpers/annotation-seed.ts), all made today.
test("annotation progress: a labels bar opens the trajectories labelled then, as many as the table view says", async ({ page }) => {
  await page.goto("/analytics");
  const section = page.getByTestId("annotation-analytics");
  await expect(section.getByRole("heading", { name: "Annotation progress and agreement" })).toBeVisible();
  const card = section.getByTestId("labels-card");
  const bar = card.getByTestId("labels-bar").last();
  await expect(bar).toBeVisible();
  expect(Number(await bar.getAttribute("data-value"))).toBeGreaterThan(0);
  // The table view names the distinct trajectories behind the bar (the bar counts labels).
  await card.getByRole("button", { name: "Table" }).click();
  const schema = (await bar.getAttribute("aria-label"))!.split(":")[0]!.split(", ").pop()!;
  const row = card.getByRole("table").locator("tbody tr", { hasText: schema }).last();
  const trajectories = Number(await row.locator("td").nth(3).innerText());
  expect(trajectories).toBeGreaterThan(0);
  await card.getByRole("button", { name: "Chart" }).click();
  await bar.click();
  await expect(page).toHaveURL(/\/trajectories\?.*labelSchema=.*labelledAt=\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("table-total")).toHaveText(`${trajectories.toLocaleString("en-US")} trajectories`);
});

test("agreement over time shows Krippendorff's α per schema and switches to days", async ({ page }) => {
  await page.goto("/analytics");
  const card = page.getByTestId("agreement-card");
  await card.getByRole("button", { name: "Table" }).click();
  await expect(card.getByRole("table").locator("tbody tr").first()).toContainText("all periods");
  await page.getByRole("link", { name: "per day" }).click();
  await expect(page).toHaveURL(/period=day/);
  await expect(page.getByTestId("labels-card").getByText("Labels per day")).toBeVisible();
});
