import { expect, test } from "@playwright/test";
import { generateTrajectories } from "../lib/generator/generate";

test("uploading a JSONL file from the import page shows the per-file summary with the failing line", async ({ page }) => {
  const good = [...generateTrajectories({ count: 3, seed: 999 })].map((t) => ({ ...t, fork: undefined, id: `e2e-upload-${t.id}` }));
  const lines = [...good.map((t) => JSON.stringify(t)), '{"task": {"id": "x"}, "run": {"name": "r"}, "steps": "nope"}'];
  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Import" })).toBeVisible();
  await page
    .getByTestId("file-input")
    .setInputFiles({ name: "e2e-upload.jsonl", mimeType: "application/json", buffer: Buffer.from(lines.join("\n") + "\n") });
  const summary = page.getByTestId("import-summary");
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId("summary-imported")).toHaveText("3");
  await expect(summary.getByTestId("summary-failed")).toHaveText("1");
  await expect(page.getByTestId("import-errors")).toContainText(
    "e2e-upload.jsonl:4: steps: Invalid input: expected array, received string",
  );

  // The uploaded trajectories are in the browser right away.
  await page.goto(`/trajectories/${good[0]!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(good[0]!.task.name!);
});
