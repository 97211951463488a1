// Suggestions in the labelling panel, keyboard only — an annotator accepts the detector's suggestion with
// `a` (it becomes a label on the step list at once) and rejects the next with `x` (it is gone, no label).
import { expect as baseExpect, test } from "@playwright/test";
import { z } from "zod";

// The machine running e2e may be shared and slow to hydrate: wait longer than the default 5 s (no timing is asserted).
const expect = baseExpect.configure({ timeout: 30_000 });

const rowsSchema = z.object({ rows: z.array(z.object({ id: z.string(), stepCount: z.number() })) });
const suggestionsSchema = z.object({
  suggestions: z.array(z.object({ key: z.string(), source: z.string(), value: z.string(), stepStart: z.number().nullable() })),
});
const labelsSchema = z.object({
  labels: z.array(
    z.object({ stepStart: z.number().nullable(), stepEnd: z.number().nullable(), value: z.string(), annotatorName: z.string() }),
  ),
});

test("an annotator accepts one suggestion with a and rejects one with x; the accepted one is a label on the step list", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  // A trajectory nobody labelled whose first two suggestions are the detector's, on two different early steps
  // (the step list is virtualized: early steps are on screen).
  const { rows } = rowsSchema.parse(
    await (await request.get("/api/v1/trajectories?annotated=nobody&outcome=failed&perPage=50&sort=stepCount&dir=asc")).json(),
  );
  let pick: {
    id: string;
    first: z.infer<typeof suggestionsSchema>["suggestions"][number];
    second: z.infer<typeof suggestionsSchema>["suggestions"][number];
  } | null = null;
  for (const r of [...rows].reverse()) {
    const { suggestions } = suggestionsSchema.parse(await (await request.get(`/api/v1/annotations/suggestions?trajectory=${r.id}`)).json());
    const [first, second] = suggestions;
    if (
      first &&
      second &&
      first.source === "detector" &&
      second.source === "detector" &&
      first.stepStart !== second.stepStart &&
      (second.stepStart ?? 99) < 9 &&
      !suggestions.slice(2).some((s) => s.stepStart === second.stepStart)
    ) {
      pick = { id: r.id, first, second };
      break;
    }
  }
  expect(pick, "a failed trajectory with two detector suggestions on early steps").not.toBeNull();
  const { id, first, second } = pick!;

  await page.goto(`/trajectories/${id}`);
  const panel = page.locator('[aria-label="Labelling"][data-hydrated="true"]');
  await expect(panel).toBeVisible();
  const list = panel.getByTestId("suggestion-list");
  await expect(list.getByTestId("suggestion").first()).toHaveAttribute("data-step", String(first.stepStart));
  await page.getByRole("button", { name: /Keyboard labelling off/ }).click();
  await expect(page.getByRole("button", { name: /Keyboard labelling on/ })).toBeVisible();
  // The ? overlay lists the suggestion keys.
  await page.keyboard.press("?");
  const help = panel.getByRole("region", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("accept the focused suggestion");
  await expect(help).toContainText("reject the focused suggestion");
  await page.keyboard.press("?");

  // The focus starts on the first suggestion (cursor at step 0): a accepts it.
  await expect(list.locator('[data-testid="suggestion"][aria-current="true"]')).toHaveAttribute("data-step", String(first.stepStart));
  await page.keyboard.press("a");
  await expect(panel.getByRole("status")).toContainText(`Accepted`);
  await expect(list.locator(`[data-testid="suggestion"][data-step="${first.stepStart}"]`)).toHaveCount(0);
  const acceptedStep = page.locator(`[data-testid="replay-step"][data-step="${first.stepStart}"]`);
  await expect(acceptedStep.getByTestId("step-label")).toBeVisible();

  // The focus moved on to the next suggestion: x rejects it — gone from the list, and no label on its step.
  await expect(list.locator('[data-testid="suggestion"][aria-current="true"]')).toHaveAttribute("data-step", String(second.stepStart));
  await page.keyboard.press("x");
  await expect(panel.getByRole("status")).toContainText("Rejected the suggestion");
  await expect(list.locator(`[data-testid="suggestion"][data-step="${second.stepStart}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-testid="replay-step"][data-step="${second.stepStart}"]`).getByTestId("step-label")).toHaveCount(0);

  // The server agrees: one label (the accepted suggestion's category on its step), neither suggestion pending.
  const { labels } = labelsSchema.parse(await (await request.get(`/api/v1/annotations?trajectory=${id}`)).json());
  expect(labels.map((l) => [l.stepStart, l.stepEnd, l.value, l.annotatorName])).toEqual([
    [first.stepStart, first.stepStart, first.value, "local-admin"],
  ]);
  const after = suggestionsSchema
    .parse(await (await request.get(`/api/v1/annotations/suggestions?trajectory=${id}`)).json())
    .suggestions.map((s) => s.key);
  expect(after).not.toContain(first.key);
  expect(after).not.toContain(second.key);
  // After a reload the panel still offers neither, and the label stays on the step list.
  await page.reload();
  await expect(panel).toBeVisible();
  await expect(page.locator(`[data-testid="replay-step"][data-step="${first.stepStart}"]`).getByTestId("step-label")).toBeVisible();
  await expect(panel.locator(`[data-testid="suggestion"][data-step="${second.stepStart}"]`)).toHaveCount(0);

  // Screenshots of the panel and of the precision table, light and dark (looked at by hand; not compared).
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await panel.screenshot({ path: `${shots}/suggestions-panel-${scheme}.png` });
      await page.goto("/annotation");
      await expect(page.getByTestId("detector-precision")).toBeVisible();
      await page.screenshot({ path: `${shots}/annotation-precision-${scheme}.png`, fullPage: true });
      await page.goto(`/trajectories/${id}`);
      await expect(panel).toBeVisible();
    }
  }
  // The decisions show in the detector's precision on /annotation: one accepted and one rejected at least.
  await page.goto("/annotation");
  await expect(page.getByTestId("detector-precision").locator('[data-category="all"]')).toBeVisible();
});
