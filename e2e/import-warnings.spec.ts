import { expect, test } from "@playwright/test";

// A partial recording must never look whole: uploaded with a bad line and an invalid resize, it is imported with
// both problems kept, flagged in the table, filterable, and listed (as text) on its page.
test("a recording imported with warnings is flagged in the table, filterable, and lists its problems on its page", async ({ page }) => {
  const cast =
    [
      '{"version": 2, "width": 80, "height": 24}',
      '[0.5, "o", "$ make test\\r\\n"]',
      "<b>not json</b>",
      '[1.0, "r", "-1x0"]',
      '[8.5, "o", "done\\r\\n"]',
    ].join("\n") + "\n";
  const res = await page.request.post("/api/imports?name=e2e-partial.cast", {
    data: Buffer.from(cast),
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.ok()).toBe(true);
  const result = JSON.parse((await res.text()).trim().split("\n").at(-1)!);
  expect(result).toMatchObject({ type: "result", failed: 0 });

  await page.goto("/trajectories?warnings=yes");
  const row = page.getByRole("row").filter({ hasText: "e2e-partial" });
  await expect(row.getByTestId("import-warnings-badge")).toHaveText("2 warnings");
  await page.goto("/trajectories?warnings=no");
  await expect(page.getByRole("row").filter({ hasText: "e2e-partial" })).toHaveCount(0);

  await page.goto("/trajectories?warnings=yes");
  await page.getByRole("row").filter({ hasText: "e2e-partial" }).getByTestId("trajectory-link").click();
  const panel = page.getByTestId("import-warnings");
  await expect(panel).toContainText("Imported with 2 warnings");
  await expect(panel).toContainText("e2e-partial.cast:3: invalid JSON in event line");
  await expect(panel).toContainText('e2e-partial.cast:4: invalid resize "-1x0"');
  // Untrusted text stays text.
  await expect(panel.locator("b")).toHaveCount(0);
});
