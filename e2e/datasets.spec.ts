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
