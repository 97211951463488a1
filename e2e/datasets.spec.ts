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
  const rows = fs
    .readFileSync((await download.path())!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { messages: unknown[] });
  expect(rows).toHaveLength(passed.length);
  for (const r of rows) {
    expect(r.messages.length).toBeGreaterThan(0);
    // OpenAI's format holds nothing else: provenance is in the sidecar, line for line.
    for (const k of Object.keys(r)) expect(["messages", "tools", "parallel_tool_calls"]).toContain(k);
  }
  const [provDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-provenance").click()]);
  expect(provDownload.suggestedFilename()).toBe("e2e-passed-v1.openai.provenance.jsonl");
  const provenance = fs
    .readFileSync((await provDownload.path())!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(provenance).toHaveLength(rows.length);
  for (const p of provenance) {
    expect(p).toMatchObject({ dataset: "e2e-passed", version: 1, outcome: "passed", kind: "trajectory" });
    expect(p.datasetHash).toMatch(/^[0-9a-f]{64}$/);
  }

  // After freezing, the version's exports are stored in the background; later exports stream them, the same bytes.
  const firstBytes = fs.readFileSync((await download.path())!);
  const firstHref = await page.getByTestId("download-export").getAttribute("href");
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("stored-exports")).toHaveText("exports stored", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel("Export format").selectOption("openai");
  await page.getByTestId("start-export").click();
  await expect(page.getByTestId("download-export")).not.toHaveAttribute("href", firstHref!, { timeout: 30_000 });
  await expect(page.getByTestId("export-ready")).toBeVisible({ timeout: 30_000 });
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-export").click()]);
  expect(fs.readFileSync((await again.path())!).equals(firstBytes)).toBe(true);

  // A new export of another format clears the previous one's ready line at once; LLaMA-Factory's file comes with its
  // dataset_info.json.
  await page.getByLabel("Export format").selectOption("sharegpt");
  await expect(page.getByLabel("Observations")).toHaveValue("rendered");
  await page.getByTestId("start-export").click();
  await expect(page.getByTestId("export-ready")).toContainText("e2e-passed-v1.sharegpt.jsonl", { timeout: 30_000 });
  const [info] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-dataset-info").click()]);
  expect(JSON.parse(fs.readFileSync((await info.path())!, "utf8"))).toMatchObject({
    "e2e-passed": { file_name: "e2e-passed-v1.sharegpt.jsonl", formatting: "sharegpt" },
  });
  await expect(page.getByTestId("export-ready")).not.toContainText("0.0 MB");

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

test("builds a dataset from a queue's agreed labels, exports labels CSV, then deletes the dataset", async ({ page }, testInfo) => {
  // A name of its own per attempt: a retry after a failure part way must not collide with the dataset it left.
  const name = `e2e-agreed-${testInfo.retry}`;
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "Create dataset from labels" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Items").selectOption("trajectory");
  await form.getByLabel("Queue").selectOption("e2e-agreement");
  await form.getByLabel("Condition 1: whose label").selectOption("all");
  await form.getByLabel("Condition 1: schema").selectOption("error-category");
  await form.getByLabel("Condition 1: comparison").selectOption("values");
  await form.getByLabel("Condition 1: value").fill("hang");
  await form.getByTestId("create-from-labels").click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${name}$`));
  // e2e/helpers/annotation-seed.ts: alice and bob both said "hang" on exactly one queue item.
  await expect(page.getByTestId("table-total")).toHaveText("1 items");

  await page.getByLabel("Export format").selectOption("labels-csv");
  await page.getByTestId("start-export").click();
  await expect(page.getByTestId("export-ready")).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-export").click()]);
  const lines = fs
    .readFileSync((await download.path())!, "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(lines[0]).toMatch(/^trajectoryId,externalId,task,run,annotator,schema,/);
  expect(lines.filter((l) => l.includes(",hang,")).length).toBeGreaterThanOrEqual(2);

  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await page.screenshot({ path: `${process.env.E2E_SHOTS ?? "test-results"}/dataset-page-${theme}.png`, fullPage: true });
    await page.goto("/datasets");
    await page.screenshot({ path: `${process.env.E2E_SHOTS ?? "test-results"}/datasets-${theme}.png`, fullPage: true });
    await page.goto(`/datasets/${name}`);
  }
  await page.evaluate(() => localStorage.setItem("theme", "light"));

  // By role, which finds only what is on screen: right after a load with the dark theme stored, the DOM can hold for a
  // moment a second copy of the page's content, still in the streamed <div hidden id="S:0"> while React has already
  // rendered the route in place (3 of 25 loads in a probe; gone 600 ms later). A test id finds both.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("button", { name: "Delete dataset and its export files?" }).click();
  await expect(page).toHaveURL(/\/datasets$/);
  await expect(page.getByTestId("dataset-row").filter({ hasText: name })).toHaveCount(0);
});
