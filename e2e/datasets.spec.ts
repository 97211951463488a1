import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { seededTrajectories } from "./helpers/seed";

// Curation end to end: a table filter becomes a dataset, it is frozen, and a background export is downloaded.
// Expectations come from the generator output e2e/serve.ts seeded.
const passed = seededTrajectories().filter((t) => t.outcome === "passed");

test("builds a dataset from a table filter, freezes it and downloads an export with provenance", async ({ page }) => {
  await page.goto("/trajectories?outcome=passed");
  await expect(page.getByTestId("table-total")).toHaveText(`${passed.length.toLocaleString("en-US")} trajectories`);

  await page.getByTestId("create-dataset").click();
  await page.getByLabel("Name").fill("e2e-passed");
  await page.getByRole("button", { name: `Create from ${passed.length} matching` }).click();
  await expect(page).toHaveURL(/\/datasets\/e2e-passed$/);
  await expect(page.getByTestId("table-total")).toHaveText(`${passed.length} items`);
  await expect(page.getByTestId("version-row")).toHaveCount(1);
  await expect(page.getByTestId("version-row").first()).toContainText("draft");

  await page.getByTestId("freeze-dataset").click();
  await expect(page.getByText("Frozen as version 1")).toBeVisible();
  await expect(page.getByTestId("version-row").first()).toContainText("frozen");
  await expect(page.getByTestId("freeze-dataset")).toBeDisabled();

  await page.getByLabel("Export format").selectOption("openai");
  await page.getByTestId("start-export").click();
  await expect(page.getByTestId("export-ready")).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-export").click()]);
  expect(download.suggestedFilename()).toBe("e2e-passed-v1.openai.jsonl");
  const rows = fs.readFileSync((await download.path())!, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { messages: unknown[]; metadata: { provenance: Record<string, unknown> } });
  expect(rows).toHaveLength(passed.length);
  for (const r of rows) {
    expect(r.messages.length).toBeGreaterThan(0);
    expect(r.metadata.provenance).toMatchObject({ dataset: "e2e-passed", version: 1, outcome: "passed", kind: "trajectory" });
    expect(r.metadata.provenance.datasetHash).toMatch(/^[0-9a-f]{64}$/);
  }

  await page.goto("/datasets");
  await expect(page.getByTestId("dataset-row").filter({ hasText: "e2e-passed" })).toContainText("v1 frozen");
});

test("builds a dataset from the table selection, after selecting all matching rows", async ({ page }) => {
  const perPage = Math.ceil(passed.length / 2);
  await page.goto(`/trajectories?outcome=passed&perPage=${perPage}`);
  await page.getByRole("checkbox", { name: "Select all rows on this page" }).check();
  await page.getByRole("button", { name: `Select all ${passed.length} matching` }).click();
  await expect(page.getByTestId("selection-count")).toHaveText(`All ${passed.length} matching trajectories selected`);

  await page.getByTestId("create-dataset-from-selection").click();
  const form = page.getByRole("form", { name: "Create dataset from selection" });
  await form.getByLabel("Name").fill("e2e-selected");
  await form.getByRole("button", { name: `Create from ${passed.length} selected` }).click();
  await expect(page).toHaveURL(/\/datasets\/e2e-selected$/);
  await expect(page.getByTestId("table-total")).toHaveText(`${passed.length} items`);
  // Version 1's diff counts every item as added.
  await expect(page.getByTestId("version-row").first()).toContainText(`+${passed.length}`);
});
