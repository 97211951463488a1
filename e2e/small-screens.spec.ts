// Layout across screen sizes: at 390×844 the sidebar is a menu button, the trajectories table scrolls sideways in its
// own box and the replay's terminal fits the width; at 1440×900 and 1280×720 the trajectory page shows the terminal's
// controls and timeline without scrolling; the nav lists only what the role can open (team server).
import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { seededTrajectories } from "./helpers/seed";
import { TEAM_PORT, TEAM_USERS_FILE } from "../playwright.config";

const PHONE = { width: 390, height: 844 };

/** The page itself never scrolls sideways: whatever is wider scrolls in its own box. */
async function expectNoPageOverflow(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

async function expectWithin(inner: Locator, outer: { x: number; width: number }) {
  const box = (await inner.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
}

async function openSettledReplay(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId("replay")).toHaveAttribute("data-settled", "true", { timeout: 30_000 });
}

const recorded = () => seededTrajectories().find((t) => t.recording && t.steps.length > 6)!;
const rebuilt = () => seededTrajectories().find((t) => !t.recording && t.steps.length > 10 && !t.fork)!;

test.describe("390×844", () => {
  test.use({ viewport: PHONE });

  test("the menu button opens the nav, Escape closes it, and following a link closes it", async ({ page }) => {
    await page.goto("/trajectories");
    // By test id: while the drawer is open, the dialog hides the rest of the page (the button too) from the
    // accessibility tree.
    const menu = page.getByTestId("menu-button");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    // The sidebar is not taking half the screen: no nav until the button opens it.
    await expect(nav).toBeHidden();

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    await expect(nav.getByRole("link", { name: "Tasks" })).toBeInViewport();
    // Focus is in the drawer, and Tab keeps it there.
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    await menu.click();
    await nav.getByRole("link", { name: "Tasks" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expectNoPageOverflow(page);
  });

  test("the trajectories table is there and scrolls sideways in its own box", async ({ page }) => {
    await page.goto("/trajectories");
    const table = page.getByRole("table", { name: "Trajectories" });
    await expect(table).toBeVisible();
    await expect(page.getByTestId("trajectory-row").first()).toBeInViewport();
    const scroller = table.locator("xpath=..");
    const sizes = await scroller.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      overflow: getComputedStyle(el).overflowX,
    }));
    expect(sizes.overflow).toBe("auto");
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    await scroller.evaluate((el) => el.scrollBy({ left: 200 }));
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectWithin(scroller, { x: 0, width: PHONE.width });
    await expectNoPageOverflow(page);
  });

  for (const [kind, pick] of [
    ["recorded", recorded],
    ["rebuilt", rebuilt],
  ] as const) {
    test(`the replay of a ${kind} session fits the width: terminal, controls and labelling in one column`, async ({ page }) => {
      const t = pick();
      await openSettledReplay(page, `/trajectories/${t.id}`);
      const host = page.locator('[data-terminal-id="main"]');
      await expect(host).toBeVisible();
      const hostBox = (await host.boundingBox())!;
      expect(hostBox.x).toBeGreaterThanOrEqual(0);
      expect(hostBox.x + hostBox.width).toBeLessThanOrEqual(PHONE.width);
      // Every column of the recorded width is drawn inside the terminal's box (the font scales; nothing is cut).
      await expectWithin(host.locator(".xterm-screen"), hostBox);
      const size = await page.evaluate(() => window.__retermTerminals?.main?.size());
      expect(size?.cols).toBeGreaterThanOrEqual(80);
      for (const part of [
        page.getByRole("toolbar", { name: "Replay controls" }),
        page.getByTestId("timeline"),
        page.locator('[aria-label="Labelling"]'),
      ]) {
        await expect(part).toBeVisible();
        await expectWithin(part, { x: 0, width: PHONE.width });
      }
      await expectNoPageOverflow(page);
    });
  }
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    for (const [kind, pick] of [
      ["recorded", recorded],
      ["rebuilt", rebuilt],
    ] as const) {
      test(`the trajectory page (${kind} session) shows the terminal, its controls and the timeline in the first screen`, async ({
        page,
      }) => {
        await openSettledReplay(page, `/trajectories/${pick().id}`);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        await expect(page.locator('[data-terminal-id="main"]')).toBeInViewport({ ratio: 1 });
        await expect(page.getByTestId("timeline")).toBeInViewport({ ratio: 1 });
        await expect(page.getByRole("toolbar", { name: "Replay controls" })).toBeInViewport({ ratio: 1 });
        // The terminal is not shrunk to a strip to get there.
        expect((await page.locator('[data-terminal-id="main"]').boundingBox())!.height).toBeGreaterThan(viewport.height / 3);
      });
    }
  });
}

// A queue item at each size: a queue of its own (failed trajectories with fork points, open to everyone who may
// annotate, so the local user works it), so no other spec's progress matters.
test.describe("a queue item", () => {
  async function openItem(page: Page, name: string) {
    const res = await page.request.post("/api/v1/annotations/queues", {
      data: { name, filter: "outcome=failed&forks=yes", schemas: ["error-category"], labelsPerItem: 1 },
    });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await page.goto(`/annotation/queues/${id}`);
    await page.getByRole("button", { name: "Start labelling" }).click();
    await page.waitForURL(/\/item\?slot=/);
    await expect(page.locator('[aria-label="Labelling"][data-hydrated="true"]')).toBeVisible();
    await expect(page.getByTestId("replay")).toHaveAttribute("data-settled", "true", { timeout: 30_000 });
  }

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} shows terminal, step list, values, target and queue bar without scrolling`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await openItem(page, `e2e-screen-${viewport.width}`);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expect(page.locator('[data-terminal-id="main"]')).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId("label-target")).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId("queue-bar")).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("radio", { name: /Command error/ })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("button", { name: /Save label/ })).toBeInViewport({ ratio: 1 });
      // The step list around the target: the selected step's row is on screen.
      await expect(page.locator('[aria-current="step"]').first()).toBeInViewport();
      await expectNoPageOverflow(page);
    });
  }

  test("at 390×844 is one column that fits the width, and saves a label from its buttons", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await openItem(page, "e2e-screen-phone");
    const before = page.url();
    for (const part of [
      page.locator('[data-terminal-id="main"]'),
      page.getByRole("toolbar", { name: "Replay controls" }),
      page.locator('[aria-label="Labelling"]'),
      page.getByTestId("label-target"),
    ]) {
      await expect(part).toBeVisible();
      await expectWithin(part, { x: 0, width: PHONE.width });
    }
    await expectNoPageOverflow(page);
    await page.getByRole("radio", { name: /Command error/ }).click();
    await page.getByRole("button", { name: /Save label/ }).click();
    await page.waitForURL((u) => u.toString() !== before);
  });
});

test.describe("the nav lists only what the role can open", () => {
  const BASE = `http://127.0.0.1:${TEAM_PORT}`;
  test.use({ baseURL: BASE });

  async function signIn(page: Page, role: "annotator" | "viewer") {
    const u = (JSON.parse(fs.readFileSync(TEAM_USERS_FILE, "utf8")) as Record<string, { name: string; password: string }>)[role]!;
    await page.goto("/sign-in");
    await page.getByLabel("User name").fill(u.name);
    await page.getByLabel("Password").fill(u.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/trajectories/, { timeout: 30_000 });
  }

  test("a viewer's nav has no Annotation or Import, on a wide screen and in the phone menu", async ({ page }) => {
    await signIn(page, "viewer");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Trajectories" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Datasets" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Annotation" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Import" })).toHaveCount(0);
    // The page the link would have opened refuses the viewer: the nav and the guard agree.
    await page.goto("/annotation");
    await expect(page.getByRole("heading", { name: "You don't have access to that page" })).toBeVisible();

    await page.setViewportSize(PHONE);
    await page.goto("/trajectories");
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await expect(nav.getByRole("link", { name: "Runs" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Annotation" })).toHaveCount(0);
  });

  test("an annotator's nav has Annotation, and it opens", async ({ page }) => {
    await signIn(page, "annotator");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Annotation" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Annotation" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Import" })).toHaveCount(0);
  });
});
