// Two annotators (alice and bob, by their API tokens) label a queue of failed trajectories with fork points at the
// same time, keyboard only, at 1440×900: every stored label is on its item's fork point (the target the panel
// names), the recovery analytics count them, `u` after Enter withdraws the last submission and brings its item back,
// and the labelling panel is inside the viewport on every item.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { z } from "zod";
import { E2E_FORK_QUEUE, E2E_TOKENS } from "./helpers/annotation-seed.ts";

const labelsSchema = z.object({
  labels: z.array(
    z.object({
      id: z.string(),
      trajectoryId: z.string(),
      targetType: z.string(),
      targetKey: z.string(),
      forkPointId: z.string().nullable(),
      value: z.string(),
    }),
  ),
});
const recoverySchema = z.object({ overall: z.object({ labelledForkPoints: z.number() }) });
const VIEWPORT = { width: 1440, height: 900 };

async function annotator(browser: Browser, name: "alice" | "bob"): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, extraHTTPHeaders: { authorization: `Bearer ${E2E_TOKENS[name]}` } });
  return context.newPage();
}

async function inViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  return !!box && box.y >= 0 && box.x >= 0 && box.y + box.height <= VIEWPORT.height && box.x + box.width <= VIEWPORT.width;
}

const slotOf = (url: string) => new URL(url).searchParams.get("slot");

/**
 * One item: the panel takes keys, names a fork point, sits in the viewport; "1" + Enter saves and opens the next.
 * Null when the queue has nothing more for this annotator.
 */
async function labelItem(page: Page): Promise<{ slot: string; targetKey: string } | null> {
  await page.waitForURL(/\/item\?slot=|finished=1/, { timeout: 30_000 });
  if (page.url().includes("finished=1")) return null;
  const slot = slotOf(page.url())!;
  // This item's panel (the URL changes before the previous item's page is replaced).
  const panel = page.locator(`[data-testid="queue-item"][data-slot="${slot}"] [aria-label="Labelling"][data-hydrated="true"]`);
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("queue-bar")).toBeVisible();
  const target = panel.getByTestId("label-target");
  await expect(target).toContainText("fork point after step");
  const targetKey = (await target.getAttribute("data-target-key"))!;
  for (const part of ['[aria-label="Labelling"] [role="radiogroup"]', '[data-testid="label-target"]', '[data-testid="queue-bar"]'])
    expect(await inViewport(page, part), `${part} in the viewport`).toBe(true);
  await page.keyboard.press("1");
  await expect(page.getByRole("radio", { name: /Command error/ })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Enter");
  await page.waitForURL((u) => slotOf(u.toString()) !== slot, { timeout: 30_000 });
  return { slot, targetKey };
}

/** The fork queue as the API lists it to this annotator (the same list /annotation shows). */
async function forkQueue(page: Page): Promise<{ id: string; itemCount: number }> {
  const { queues } = z
    .object({ queues: z.array(z.object({ queue: z.object({ id: z.string(), name: z.string(), itemCount: z.number() }) })) })
    .parse(await (await page.request.get("/api/v1/annotations/queues")).json());
  return queues.find((q) => q.queue.name === E2E_FORK_QUEUE)!.queue;
}

async function start(page: Page) {
  await page.goto(`/annotation/queues/${(await forkQueue(page)).id}`);
  await expect(page.getByRole("heading", { level: 1, name: E2E_FORK_QUEUE })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Start labelling" }).click();
}

test("two annotators label a fork-point queue by keyboard at once; labels land on the fork points; u withdraws", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const before = recoverySchema.parse(await (await request.get("/api/v1/analytics/recovery")).json()).overall.labelledForkPoints;
  const [alice, bob] = [await annotator(browser, "alice"), await annotator(browser, "bob")];
  const shown = new Map<string, string>(); // slot → the target key the panel named
  const QUEUE_ITEMS = (await forkQueue(alice)).itemCount;
  expect(QUEUE_ITEMS).toBeGreaterThanOrEqual(10);

  const labelled = { alice: 0, bob: 0 };
  const run = async (page: Page, who: keyof typeof labelled, undoAfter: number | null) => {
    let undone = false;
    await start(page);
    // Until the queue has nothing more for this annotator: the two share its items between them.
    for (let i = 0; i < 2 * QUEUE_ITEMS; i++) {
      const item = await labelItem(page);
      if (!item) break;
      const { slot, targetKey } = item;
      shown.set(slot, targetKey);
      labelled[who]++;
      if (i + 1 === undoAfter && !undone) {
        undone = true;
        // The next item is open: u withdraws the submission just made and brings its item back.
        await expect(
          page.locator(`[data-testid="queue-item"][data-slot="${slotOf(page.url())}"] [aria-label="Labelling"][data-hydrated="true"]`),
        ).toBeVisible({ timeout: 30_000 });
        await expect(page.getByRole("button", { name: /Undo/ })).toBeEnabled({ timeout: 30_000 });
        await page.keyboard.press("u");
        await page.waitForURL((u) => slotOf(u.toString()) === slot, { timeout: 30_000 });
        await expect(
          page.locator(`[data-testid="queue-item"][data-slot="${slot}"] [aria-label="Labelling"][data-hydrated="true"]`),
        ).toBeVisible({ timeout: 30_000 });
        await expect(page.getByTestId("label-review")).toHaveCount(0);
        const mine = labelsSchema.parse(
          await (await page.request.get(`/api/v1/annotations?annotator=alice&schema=error-category&limit=1000`)).json(),
        ).labels;
        expect(mine.some((l) => l.targetKey === targetKey)).toBe(false);
        // Labelled again (the loop's next round is this same item).
        labelled[who]--;
        i--;
      }
    }
  };
  await Promise.all([run(alice, "alice", 2), run(bob, "bob", null)]);
  // Both worked the queue at once, and between them labelled every item once.
  expect(labelled.alice).toBeGreaterThan(0);
  expect(labelled.bob).toBeGreaterThan(0);
  expect(labelled.alice + labelled.bob).toBe(QUEUE_ITEMS);

  // Every label made from the queue is on the fork point the panel named.
  const labels = labelsSchema
    .parse(await (await request.get(`/api/v1/annotations?schema=error-category&limit=1000`)).json())
    .labels.filter((l) => [...shown.values()].includes(l.targetKey));
  expect(shown.size).toBe(QUEUE_ITEMS);
  expect(labels).toHaveLength(QUEUE_ITEMS);
  for (const l of labels) {
    expect(l.targetType).toBe("fork_point");
    expect(l.forkPointId).not.toBeNull();
    expect(l.targetKey).toMatch(new RegExp(`^fork:${l.trajectoryId}:\\d+$`));
  }
  const after = recoverySchema.parse(await (await request.get("/api/v1/analytics/recovery")).json()).overall.labelledForkPoints;
  expect(after - before).toBe(QUEUE_ITEMS);
  await Promise.all([alice.context().close(), bob.context().close()]);
});
