// The Users page of the team server (playwright.config.ts TEAM_PORT): an admin creates an account, disables it (its
// sign-in is refused with a clear message), enables it (it signs in), deletes it (the row stays, marked deleted);
// the password-less account the CLI acts as is explained, and bad credentials on a page lead to sign-in, not a 500.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { TEAM_PORT, TEAM_USERS_FILE } from "../playwright.config";

const BASE = `http://127.0.0.1:${TEAM_PORT}`;
test.use({ baseURL: BASE });

async function signIn(page: Page, name: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an admin disables, enables and deletes an account on the Users page", async ({ page, browser }) => {
  // Three password checks (scrypt, deliberately slow) and two browsers: more than the default minute on a busy machine.
  test.setTimeout(240_000);
  const admin = (JSON.parse(fs.readFileSync(TEAM_USERS_FILE, "utf8")) as Record<string, { name: string; password: string }>).admin!;
  await signIn(page, admin.name, admin.password);
  await expect(page).toHaveURL(/\/trajectories/, { timeout: 30_000 });
  await page.goto("/admin/users");

  // e2e/serve.ts made the password-less local-admin the team server's RETERM_USER: it is labelled, not unexplained.
  const localRow = page.getByTestId("user-row").filter({ hasText: "local-admin" });
  await expect(localRow).toContainText("local / CLI account");

  const name = `gone-${Date.now().toString(36)}`;
  await page.getByLabel("User name").fill(name);
  await page.getByRole("button", { name: "Create user" }).click();
  const password = (await page.getByTestId("one-time-secret").textContent({ timeout: 30_000 }))!.trim();
  const row = page.getByTestId("user-row").filter({ hasText: name });

  await row.getByRole("button", { name: `Disable ${name}`, exact: true }).click();
  await expect(row).toHaveAttribute("data-state", "disabled");
  const other = await browser.newContext({ baseURL: BASE });
  const them = await other.newPage();
  await signIn(them, name, password);
  await expect(them.getByText("This account is disabled. Ask an admin to enable it.")).toBeVisible({ timeout: 30_000 });

  await row.getByRole("button", { name: `Enable ${name}`, exact: true }).click();
  await expect(row).toHaveAttribute("data-state", "active");
  await signIn(them, name, password);
  await expect(them).toHaveURL(/\/trajectories/, { timeout: 30_000 });

  await row.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
  await row.getByRole("button", { name: `Confirm delete ${name}` }).click();
  await expect(row).toHaveAttribute("data-state", "deleted");
  // Deleting ended their session.
  await them.goto("/runs");
  await expect(them).toHaveURL(/\/sign-in/);
  await other.close();
});

test("a revoked, unknown or Basic Authorization header on a page leads to sign-in, never a server error", async ({ request }) => {
  for (const authorization of [`Bearer rt_${"x".repeat(43)}`, `Basic ${Buffer.from("a:b").toString("base64")}`]) {
    const res = await request.get("/runs", { headers: { authorization }, maxRedirects: 0 });
    expect(res.status(), authorization).toBe(307);
    expect(res.headers().location).toMatch(/\/sign-in\?next=%2Fruns&refused=1$/);
    const signIn = await request.get("/sign-in?next=%2Fruns&refused=1", { headers: { authorization } });
    expect(signIn.status()).toBe(200);
    expect(await signIn.text()).toContain("Authorization header was refused");
  }
});
