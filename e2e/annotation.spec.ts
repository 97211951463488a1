// Labelling end to end against the production build (data from e2e/helpers/annotation-seed.ts): a queue finished with
// the keyboard only, κ of two annotators on the queue page, adjudication, a refused concurrent edit, blind mode.
import { expect, test, type Page } from "@playwright/test";
import { z } from "zod";
import { E2E_KAPPA, E2E_TOKENS } from "./helpers/annotation-seed.ts";

const labelsSchema = z.object({
  labels: z.array(
    z.object({
      id: z.string(),
      trajectoryId: z.string(),
      annotatorName: z.string(),
      schemaKey: z.string(),
      targetType: z.string(),
      value: z.string(),
      version: z.number(),
    }),
  ),
});

async function openQueue(page: Page, name: string) {
  await page.goto("/annotation");
  await page.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("an annotator works through a queue with the keyboard only", async ({ page }) => {
  await openQueue(page, "e2e-keyboard");
  const start = page.getByRole("button", { name: "Start labelling" });
  await start.focus();
  await page.keyboard.press("Enter");
  let finished = 0;
  for (let i = 0; i < 12; i++) {
    await page.waitForURL(/slot=|finished=1/);
    if (page.url().includes("finished=1")) break;
    const before = page.url();
    const slot = new URL(before).searchParams.get("slot");
    await expect(page.getByTestId("queue-bar")).toBeVisible();
    // Items follow each other without a page load: wait for this item's panel, not the one still on screen.
    await expect(
      page.locator(`[data-testid="queue-item"][data-slot="${slot}"] [aria-label="Labelling"][data-hydrated="true"]`),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /Keyboard labelling on/ })).toBeVisible();
    // The cursor starts at the item's target; one step on, a range of that step → "command-error" (hotkey 1) → Enter
    // saves, finishes the item and opens the next.
    for (const k of ["j", "[", "]", "1"]) await page.keyboard.press(k);
    await expect(page.getByRole("radio", { name: /Command error/ })).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.toString() !== before);
    finished++;
  }
  await expect(page).toHaveURL(/finished=1/);
  await expect(page.getByText("Nothing more in this queue for you right now")).toBeVisible();
  expect(finished).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("queue-progress")).toContainText(`${finished} of ${finished} label places done (100%)`);
});

test("two annotators' labels give the expected Cohen's κ; an adjudicated item shows the final label", async ({ page }) => {
  await openQueue(page, "e2e-agreement");
  const card = page.getByTestId("agreement-error-category");
  await expect(card.getByTestId("cohen-kappa")).toHaveText(E2E_KAPPA);
  await expect(card.getByText("4 item(s) labelled by at least two of 2 annotator(s)")).toBeVisible();
  const disagreement = card.getByTestId("disagreements").getByRole("listitem");
  await expect(disagreement).toHaveCount(1);
  await expect(disagreement).toContainText("alice: Timeout · bob: Hang / interactive prompt");
  await expect(disagreement).toContainText("steps 1–2");
  await disagreement.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Adjudicate" })).toBeVisible();
  const target = page.getByTestId("adjudication-target").filter({ hasText: "disagreement" });
  await target.getByRole("combobox", { name: "Final label" }).selectOption("timeout");
  await target.getByRole("button", { name: "Record final label" }).click();
  await expect(target.getByTestId("gold-label")).toHaveText("final: Timeout");
  await page.reload();
  await expect(page.getByTestId("gold-label")).toHaveText("final: Timeout");
});

test("a concurrent edit is refused with a message saying who changed the label", async ({ browser, request }) => {
  // The seeded step-range label (other specs may have given local-admin labels of other kinds, e.g. a ranking).
  const mine = labelsSchema
    .parse(await (await request.get("/api/v1/annotations?annotator=local-admin&schema=error-category")).json())
    .labels.find((l) => l.targetType === "step_range")!;
  const [a, b] = [await browser.newPage(), await browser.newPage()];
  for (const p of [a, b]) {
    await p.goto(`/trajectories/${mine.trajectoryId}`);
    await expect(p.locator('[aria-label="Labelling"][data-hydrated="true"]')).toBeVisible();
    await p.getByLabel("Range start").fill("1");
    await p.getByLabel("Range end").fill("2");
    await expect(p.getByRole("button", { name: /Change label/ })).toBeVisible();
  }
  await a.getByRole("radio", { name: /Timeout/ }).click();
  await a.getByRole("button", { name: /Change label/ }).click();
  await expect(a.locator('[aria-label="Labelling"]').getByRole("status")).toContainText("Saved Error category: Timeout on steps 1–2");
  await b.getByRole("radio", { name: /Command error/ }).click();
  await b.getByRole("button", { name: /Change label/ }).click();
  await expect(b.locator('[aria-label="Labelling"]').getByRole("alert")).toContainText(
    /this label was changed by local-admin at .* \(version 2, you edited version 1\)/,
  );
  // Nothing was overwritten: the stored value is tab A's.
  const after = labelsSchema
    .parse(await (await request.get(`/api/v1/annotations?trajectory=${mine.trajectoryId}&annotator=local-admin`)).json())
    .labels.find((l) => l.id === mine.id)!;
  expect(after).toMatchObject({ value: "timeout", version: 2 });
  // Close both windows: left open, they keep the browser's focus and later specs' keys go astray.
  await Promise.all([a.context().close(), b.context().close()]);
});

test("blind mode hides the other annotator's labels (held on the server)", async ({ request }) => {
  const all = labelsSchema.parse(await (await request.get("/api/v1/annotations?annotator=bob")).json()).labels;
  const trajectoryId = all[0]!.trajectoryId;
  const asAlice = labelsSchema.parse(
    await (
      await request.get(`/api/v1/annotations?trajectory=${trajectoryId}`, { headers: { authorization: `Bearer ${E2E_TOKENS.alice}` } })
    ).json(),
  ).labels;
  expect(asAlice.map((l) => l.annotatorName)).toEqual(["alice"]);
  const asReviewer = labelsSchema.parse(await (await request.get(`/api/v1/annotations?trajectory=${trajectoryId}`)).json()).labels;
  // A reviewer sees both annotators (and any label another spec added as local-admin).
  expect(asReviewer.map((l) => l.annotatorName)).toEqual(expect.arrayContaining(["alice", "bob"]));
  // Asking for bob's labels by name does not get around it.
  const bobsViaAlice = labelsSchema.parse(
    await (await request.get("/api/v1/annotations?annotator=bob", { headers: { authorization: `Bearer ${E2E_TOKENS.alice}` } })).json(),
  ).labels;
  expect(bobsViaAlice).toEqual([]);
});

test("a saved step-range label shows at once in the step list and on the timeline, and in the table's Labels column", async ({
  page,
  request,
}) => {
  const list = z.object({ rows: z.array(z.object({ id: z.string(), stepCount: z.number() })) });
  const target = list.parse(await (await request.get("/api/v1/trajectories?annotated=nobody&steps=4..&perPage=1")).json()).rows[0]!;
  await page.goto(`/trajectories/${target.id}`);
  await expect(page.locator('[aria-label="Labelling"][data-hydrated="true"]')).toBeVisible();
  await expect(page.getByTestId("step-label")).toHaveCount(0);
  await page.getByLabel("Range start").fill("1");
  await page.getByLabel("Range end").fill("2");
  await page.getByRole("radio", { name: /Timeout/ }).click();
  await page.getByRole("button", { name: /Save label|Change label/ }).click();
  await expect(page.locator('[aria-label="Labelling"]').getByRole("status")).toContainText("Saved Error category: Timeout on steps 1–2");
  // No reload: the step list marks steps 1 and 2, the timeline draws one bar.
  const marked = page.getByTestId("replay-step-list").getByTestId("step-label");
  await expect(marked.first()).toHaveText("Timeout");
  await expect(page.locator('[data-testid="replay-step"][data-step="1"]').getByTestId("step-label")).toBeVisible();
  await expect(page.locator('[data-testid="replay-step"][data-step="0"]').getByTestId("step-label")).toHaveCount(0);
  await expect(page.getByTestId("timeline-label")).toHaveCount(1);
  // The browser's Label filter finds it and the Labels column shows the value as a chip.
  await page.goto(`/trajectories?label=timeout&steps=${target.stepCount}..${target.stepCount}`);
  const row = page.locator("tr", { has: page.locator(`a[href^="/trajectories/${target.id}"]`) });
  await expect(row.getByTestId("label-chips")).toContainText("Timeout");
});

test("a queue made from the form keeps reservations for the idle time chosen, and says so", async ({ page }) => {
  await page.goto("/annotation?filter=outcome%3Dfailed");
  await page.getByLabel("Name", { exact: true }).fill("e2e-form-queue");
  await page.getByLabel("Labels per item").fill("1");
  await page.getByLabel("Reservation kept while idle (min)").fill("45");
  await page.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "e2e-form-queue" })).toBeVisible();
  await expect(page.getByText("reservations expire after 45 min idle")).toBeVisible();
});
