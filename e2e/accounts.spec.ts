// Team mode in a real browser: sign-in per role, what each role sees and may do, sign-out, direct posts refused,
// brute force slowed, tokens, and untrusted text rendered as text. Runs against the team server of
// playwright.config.ts (TEAM_PORT), whose accounts e2e/serve.ts wrote to TEAM_USERS_FILE.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { TEAM_PORT, TEAM_USERS_FILE } from "../playwright.config";

const BASE = `http://127.0.0.1:${TEAM_PORT}`;
type Role = "admin" | "researcher" | "annotator" | "viewer";
const users = (): Record<Role, { name: string; password: string }> => JSON.parse(fs.readFileSync(TEAM_USERS_FILE, "utf8"));

test.use({ baseURL: BASE });

async function signIn(page: Page, role: Role) {
  const u = users()[role];
  await page.goto("/sign-in");
  await page.getByLabel("User name").fill(u.name);
  await page.getByLabel("Password").fill(u.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // scrypt is deliberately slow, and the machine may be busy.
  await expect(page).toHaveURL(/\/trajectories/, { timeout: 30_000 });
  await expect(page.getByTestId("current-user")).toContainText(`${u.name} · ${role}`);
}

test("signed out: pages send you to sign-in and the API answers 401", async ({ page }) => {
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect((await page.request.get("/api/v1/trajectories")).status()).toBe(401);
  const csp = (await page.request.get("/sign-in")).headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
});

const SEES: Record<Role, { import: boolean; users: boolean; audit: boolean }> = {
  admin: { import: true, users: true, audit: true },
  researcher: { import: true, users: false, audit: false },
  annotator: { import: false, users: false, audit: false },
  viewer: { import: false, users: false, audit: false },
};

for (const role of Object.keys(SEES) as Role[]) {
  test(`${role}: sees only what the role may, the server refuses the rest, and signs out`, async ({ page }) => {
    await signIn(page, role);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Import" })).toHaveCount(SEES[role].import ? 1 : 0);
    await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(SEES[role].users ? 1 : 0);
    await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(SEES[role].audit ? 1 : 0);
    await expect(page.getByTestId("trajectory-row").first()).toBeVisible();

    for (const [path, allowed] of [
      ["/import", SEES[role].import],
      ["/admin/users", SEES[role].users],
      ["/admin/audit", SEES[role].audit],
    ] as const) {
      await page.goto(path);
      if (allowed) await expect(page).toHaveURL(new RegExp(path));
      else await expect(page.getByRole("heading", { name: "You don't have access to that page" })).toBeVisible();
    }

    // Posting straight to the write APIs with this session: the server decides, not the hidden link.
    const ndjson = '{"format":"reterm.trajectory.v1"}';
    const direct = await page.request.post("/api/v1/trajectories", { data: ndjson, headers: { "content-type": "application/json" } });
    // An importer gets past the guard (the invalid record is reported: 200 with failed 1, or 400); others get 403.
    if (SEES[role].import) expect([200, 400]).toContain(direct.status());
    else expect(direct.status()).toBe(403);
    const upload = await page.request.post("/api/imports?name=x.jsonl", {
      data: "{}",
      headers: { "content-type": "application/octet-stream" },
    });
    if (!SEES[role].import) expect(upload.status()).toBe(403);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/trajectories");
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.request.get("/api/v1/trajectories")).status()).toBe(401);
  });
}

test("a cross-site form post is refused even with a valid session", async ({ page }) => {
  await signIn(page, "admin");
  const res = await page.request.post("/api/v1/trajectories", {
    data: "{}",
    headers: { "content-type": "application/json", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toMatch(/cross-site request refused/);
});

test("wrong passwords are refused, then the account is locked for a while", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("User name").fill("e2e-nobody");
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Password").fill(`guess-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong user name or password.", { timeout: 30_000 });
    // The same message comes back each time: wait for this attempt to finish before the next.
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 30_000 });
  }
  // The name stays filled in after a failed attempt.
  await expect(page.getByLabel("User name")).toHaveValue("e2e-nobody");
  await page.getByLabel("Password").fill("guess-6");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("Too many failed attempts", { timeout: 30_000 });
});

test("a forged X-Forwarded-For neither dodges the throttle nor names the address; a clean account still signs in from there", async ({
  page,
}) => {
  await page.goto("/sign-in");
  await page.getByLabel("User name").fill("e2e-spoofed");
  for (let i = 0; i < 5; i++) {
    // No proxy is trusted: each attempt claims another address, and the server counts the socket's.
    await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.66.0.${i}`, "x-real-ip": `10.67.0.${i}`, "x-reterm-peer": `10.68.0.${i}` });
    await page.getByLabel("Password").fill(`guess-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong user name or password.", { timeout: 30_000 });
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 30_000 });
  }
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "10.66.1.1" });
  await page.getByLabel("Password").fill("guess-6");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("Too many failed attempts", { timeout: 30_000 });
  // The admin's account is clean: the same address, which just failed on another account, signs in.
  await signIn(page, "admin");
  const audit = await page.request.get("/api/v1/audit?action=auth.sign-in-failed&actor=e2e-spoofed");
  expect(audit.headers()["cache-control"]).toBe("no-store");
  const addresses = (await audit.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).ipAddress);
  expect(addresses).toEqual(Array(5).fill("127.0.0.1"));
});

test("admin: creates a user, issues and revokes an API token, and reads the audit log", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/users");
  await page.getByLabel("User name").fill("e2e-newcomer");
  await page.getByLabel("Role", { exact: true }).selectOption("annotator");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("one-time-secret")).toHaveText(/^[A-Za-z0-9_-]{20}$/, { timeout: 30_000 });
  await expect(page.getByTestId("user-row").filter({ hasText: "e2e-newcomer" })).toBeVisible();

  await page.goto("/account/tokens");
  await page.getByLabel("Token name").fill("e2e-pipeline");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("one-time-secret")).toBeVisible({ timeout: 20_000 });
  const token = (await page.getByTestId("one-time-secret").textContent())!;
  expect(token).toMatch(/^rt_/);
  const anon = await page.context().browser()!.newContext({ baseURL: BASE });
  expect((await anon.request.get("/api/v1/trajectories", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
  await page.reload();
  await page.getByTestId("token-row").filter({ hasText: "e2e-pipeline" }).getByRole("button", { name: "Revoke e2e-pipeline" }).click();
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e-pipeline" }).getByText("revoked")).toBeVisible({ timeout: 20_000 });
  expect((await anon.request.get("/api/v1/trajectories", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await anon.close();

  await page.goto("/admin/audit");
  const rows = page.getByTestId("audit-row");
  await expect(rows.filter({ hasText: "token.revoke" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "user.create" }).filter({ hasText: "e2e-newcomer" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "auth.sign-in" }).first()).toBeVisible();
  const exported = await page.request.get("/api/v1/audit?action=token.");
  expect(exported.headers()["content-type"]).toContain("application/x-ndjson");
  expect(
    (await exported.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).action),
  ).toEqual(["token.revoke", "token.create"]);
});

test("XSS payloads in imported task names, commands, outputs and reasoning render as text and run nothing", async ({ page }) => {
  const xss = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
  await signIn(page, "researcher");
  page.on("dialog", (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  const trajectory = {
    format: "reterm.trajectory.v1",
    id: "e2e-xss-1",
    task: { benchmark: "reterm-e2e", id: "xss", name: `Task ${xss}` },
    run: { name: `run ${xss}` },
    outcome: "failed",
    steps: [
      { source: "user", message: `Please ${xss}` },
      { source: "agent", reasoning: `Thinking ${xss}`, action: `echo '${xss}'`, observation: `out ${xss}`, exitCode: 1 },
    ],
  };
  const res = await page.request.post("/api/imports?name=xss.reterm.jsonl", {
    data: JSON.stringify(trajectory) + "\n",
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('"imported":1');
  await page.goto("/trajectories?q=");
  await page
    .getByRole("link", { name: `Task ${xss}` })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Task ${xss}`);
  await expect(page.getByTestId("step-command").first()).toContainText(`echo '${xss}'`);
  await expect(page.getByTestId("step-output").first()).toContainText(`out ${xss}`);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("main img[src='x']").count()).toBe(0);
});
