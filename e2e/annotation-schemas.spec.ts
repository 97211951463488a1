// Schema editor and attempt ranking in a real browser. The editor runs on the team server (an admin
// creates a schema with a hotkey, then an annotator labels with that hotkey and reads the option's description);
// ranking runs on the local server's known seeded data, by keyboard only.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { z } from "zod";
import { TEAM_PORT, TEAM_USERS_FILE } from "../playwright.config";
import { seededTrajectories } from "./helpers/seed";

type Role = "admin" | "researcher" | "annotator" | "viewer";
const users = (): Record<Role, { name: string; password: string }> => JSON.parse(fs.readFileSync(TEAM_USERS_FILE, "utf8"));
const TEAM = `http://127.0.0.1:${TEAM_PORT}`;

async function signIn(page: Page, role: Role) {
  const u = users()[role];
  await page.goto(`${TEAM}/sign-in`);
  await page.getByLabel("User name").fill(u.name);
  await page.getByLabel("Password").fill(u.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/trajectories/, { timeout: 30_000 });
}

async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return; // screenshots for reviewers on request (E2E_SCREENSHOTS=/some/folder)
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: `${dir}/${name}-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test("an admin creates a schema with a hotkey; an annotator labels with that hotkey and reads the description", async ({ browser }) => {
  test.setTimeout(180_000); // two sign-ins (scrypt is slow on purpose) and two browser contexts
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, "admin");
  await admin.goto(`${TEAM}/annotation/schemas`);
  await expect(admin.getByRole("heading", { level: 1, name: "Label schemas" })).toBeVisible();
  await expect(admin.getByRole("table", { name: "Label schemas" })).toContainText("error-category");
  await admin.getByRole("link", { name: "New schema" }).click();
  await expect(admin.getByRole("heading", { level: 1, name: "New label schema" })).toBeVisible();
  const form = admin.getByRole("form", { name: "Schema editor" });
  await form.getByLabel("Name").fill("Shell mood");
  await form.getByLabel("Key (stable id; cannot change)").fill("shell-mood");
  await form.getByRole("checkbox", { name: "attempt" }).check();
  await form.getByRole("button", { name: "Add option" }).click();
  await form.getByLabel("Option 1 value").fill("calm");
  await form.getByLabel("Option 1 label").fill("Calm");
  // j is the labelling panel's "next step": the editor says so before anything is sent.
  await form.getByLabel("Option 1 hotkey").fill("j");
  await expect(form.getByText('"j" is reserved for the labelling keys')).toBeVisible();
  await expect(form.getByRole("button", { name: "Create schema" })).toBeDisabled();
  await form.getByLabel("Option 1 hotkey").fill("m");
  await form.getByLabel("Option 1 description").fill("Reads errors and answers them one at a time");
  await form.getByRole("button", { name: "Add option" }).click();
  await form.getByLabel("Option 2 value").fill("panic");
  await form.getByLabel("Option 2 label").fill("Panic");
  await form.getByLabel("Option 2 hotkey").fill("m");
  await expect(form.getByText('hotkey "m" is used twice')).toBeVisible();
  await form.getByLabel("Option 2 hotkey").fill("p");
  await form.getByLabel("Option 2 parent").selectOption("calm");
  await shoot(admin, "schema-editor-new");
  await form.getByRole("button", { name: "Create schema" }).click();
  await expect(admin).toHaveURL(/\/annotation\/schemas\/shell-mood\?saved=1/);
  await expect(admin.getByRole("heading", { level: 1, name: "Shell mood" })).toBeVisible();
  await expect(admin.getByText("0 labels use this schema")).toBeVisible();
  await shoot(admin, "schema-editor-edit");
  await admin.goto(`${TEAM}/annotation/schemas`);
  await expect(admin.getByRole("table", { name: "Label schemas" })).toContainText("Shell mood");
  await shoot(admin, "schema-list");
  // The export is the import format.
  const exported = z
    .array(z.object({ key: z.string(), options: z.array(z.object({ value: z.string(), hotkey: z.string().optional() })) }))
    .parse(await (await admin.request.get(`${TEAM}/api/v1/label-schemas`)).json());
  expect(exported.find((s) => s.key === "shell-mood")!.options.map((o) => [o.value, o.hotkey])).toEqual([
    ["calm", "m"],
    ["panic", "p"],
  ]);

  // The annotator's browser: keyboard labelling with the new hotkey, the description readable while labelling.
  const annotator = await (await browser.newContext()).newPage();
  await signIn(annotator, "annotator");
  await annotator.goto(`${TEAM}/annotation/schemas`);
  await expect(annotator).toHaveURL(/\/forbidden/);
  const rows = z
    .object({ rows: z.array(z.object({ id: z.string() })) })
    .parse(await (await annotator.request.get(`${TEAM}/api/v1/trajectories?perPage=1`)).json()).rows;
  await annotator.goto(`${TEAM}/trajectories/${rows[0]!.id}`);
  const panel = annotator.locator('[aria-label="Labelling"][data-hydrated="true"]');
  await expect(panel).toBeVisible();
  await panel.getByRole("combobox").first().selectOption({ label: "Shell mood" });
  await panel.getByRole("button", { name: /Keyboard labelling off/ }).click();
  // The page's keys, not the focused button's: Enter on a focused button would press it.
  await annotator.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await annotator.keyboard.press("m");
  await expect(panel.getByRole("radio", { name: "m Calm", exact: true })).toHaveAttribute("aria-checked", "true"); // "Calm › Panic" is its child
  await expect(panel.getByTestId("option-description")).toHaveText("Calm: Reads errors and answers them one at a time");
  await annotator.keyboard.press("Enter");
  await expect(panel.getByRole("status")).toContainText("Saved Shell mood: Calm");
  await shoot(annotator, "labelling-with-new-schema");
  // Left open, these windows keep the browser's focus and later specs' keys go astray.
  await Promise.all([admin.context().close(), annotator.context().close()]);
});

test("rank the attempts of a fork point by keyboard: Alt+↓ moves, Enter saves, the order is stored as a label", async ({
  page,
  request,
}) => {
  const all = seededTrajectories();
  const parent =
    all.find((p) => all.filter((a) => a.fork?.parentId === p.id).length >= 3) ??
    all.find((p) => all.filter((a) => a.fork?.parentId === p.id).length >= 2)!;
  const fork = all.find((a) => a.fork?.parentId === parent.id)!.fork!.stepIndex;
  await page.goto(`/trajectories/${parent.id}/compare?fork=${fork}`);
  const card = page.getByRole("region", { name: "Rank attempts" }).or(page.locator('[aria-label="Rank attempts"]'));
  const list = card.getByTestId("ranking-list");
  const order = () => list.locator("li").evaluateAll((els) => els.map((e) => e.getAttribute("data-attempt-id")!));
  await expect(list.locator("li").first()).toBeVisible();
  const before = await order();
  expect(before.length).toBeGreaterThanOrEqual(2);
  // Wait for hydration: a keypress before React attaches handlers would be lost.
  await expect(card.getByRole("button", { name: /Save ranking/ })).toBeEnabled();
  await list.locator("li").first().focus();
  await page.keyboard.press("Alt+ArrowDown");
  const moved = [before[1]!, before[0]!, ...before.slice(2)];
  await expect.poll(order).toEqual(moved);
  // Focus stays on the moved attempt: a second Alt+↓ moves it again (when there is room).
  if (before.length >= 3) {
    await page.keyboard.press("Alt+ArrowDown");
    moved.splice(1, 2, before[2]!, before[0]!);
    await expect.poll(order).toEqual(moved);
  }
  await page.keyboard.press("Enter");
  await expect(card.getByRole("status")).toHaveText("Ranking saved (version 1).");
  await shoot(page, "ranking");
  const stored = z
    .object({ labels: z.array(z.object({ schemaKey: z.string(), value: z.string(), version: z.number(), targetType: z.string() })) })
    .parse(await (await request.get(`/api/v1/annotations?trajectory=${parent.id}&schema=attempt-ranking`)).json()).labels;
  expect(stored).toEqual([
    expect.objectContaining({ schemaKey: "attempt-ranking", targetType: "fork_point", value: JSON.stringify(moved), version: 1 }),
  ]);
  await page.reload();
  await expect.poll(order).toEqual(moved);
  await expect(card.getByTestId("ranking-version")).toHaveText("your ranking v1");
});
