// The failure-modes page on data the spec pushes itself (a run of its own, on the scratch server): planted failures whose modules and paths
// vary group into one mode each, and "Suggest category on its steps" offers the mode's category as suggestions on
// every step of it (never labels), within the page's run filter.
import { expect as baseExpect, test } from "@playwright/test";
import { z } from "zod";
import { SCRATCH_PORT } from "../playwright.config";

// On the scratch server: the trajectories this spec adds must not change the totals other specs count.
test.use({ baseURL: `http://127.0.0.1:${SCRATCH_PORT}` });

// The machine running e2e may be shared and slow to hydrate: wait longer than the default 5 s (no timing is asserted).
const expect = baseExpect.configure({ timeout: 30_000 });

const modesSchema = z.object({
  modes: z.array(
    z.object({
      id: z.string(),
      signature: z.string(),
      trajectories: z.number(),
      runs: z.array(z.object({ id: z.string(), name: z.string() })),
      examples: z.array(z.object({ trajectoryId: z.string(), stepIndex: z.number() })),
    }),
  ),
});
const suggestionsSchema = z.object({
  suggestions: z.array(z.object({ source: z.string(), value: z.string(), stepStart: z.number().nullable() })),
});
const labelsSchema = z.object({ labels: z.array(z.unknown()) });

test("planted failures group into modes on the page, and a mode's category is offered on its steps as suggestions", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const run = `fm-e2e-${Date.now()}`;
  const modules = ["numpy", "pandas", "numpy", "torch"];
  const trajectory = (id: string, observation: string) => ({
    format: "reterm.trajectory.v1",
    id: `${run}-${id}`,
    task: { benchmark: "fm-e2e", id: "t1" },
    run: { name: run, model: "m-e2e", checkpoint: "1" },
    outcome: "failed",
    steps: [
      { source: "agent", action: "ls", observation: "a b", exitCode: 0 },
      { source: "agent", action: "python3 x.py", observation, exitCode: 1 },
    ],
  });
  const body = [
    ...modules.map((m, i) =>
      trajectory(
        `mod-${i}`,
        `Traceback (most recent call last):\n  File "/tmp/w${i}/job_${i * 13}.py", line ${i + 7}, in <module>\nModuleNotFoundError: No module named '${m}'`,
      ),
    ),
    ...[0, 1].map((i) => trajectory(`seg-${i}`, `bash: line 1: ${4100 + i} Segmentation fault (core dumped) ./solve --n ${i}`)),
  ]
    .map((t) => JSON.stringify(t))
    .join("\n");
  const pushed = await request.post("/api/v1/trajectories", { data: body, headers: { "content-type": "application/x-ndjson" } });
  expect(pushed.status()).toBe(200);

  const all = modesSchema.parse(await (await request.get("/api/v1/analytics/failure-modes?limit=500")).json());
  const runId = all.modes.flatMap((m) => m.runs).find((r) => r.name === run)?.id;
  expect(runId, "the pushed run appears in the failure modes").toBeTruthy();
  const { modes } = modesSchema.parse(await (await request.get(`/api/v1/analytics/failure-modes?runId=${runId}`)).json());
  expect(modes.map((m) => [m.signature, m.trajectories])).toEqual([
    ["ModuleNotFoundError: No module named '<name>'", 4],
    ["Segmentation fault", 2],
  ]);

  await page.goto(`/analytics/failure-modes?runId=${runId}`);
  const table = page.getByTestId("failure-modes-table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  const first = table.locator("tbody tr").first();
  await expect(first).toContainText("No module named '<name>'");
  await first.getByRole("button", { name: "Suggest category on its steps" }).click();
  await expect(first.getByRole("status")).toContainText("4 suggested, 0 updated, 0 already");

  // The server agrees: each trajectory of the mode has the suggestion on its failing step, and no label.
  for (const e of modes[0]!.examples) {
    const { suggestions } = suggestionsSchema.parse(
      await (await request.get(`/api/v1/annotations/suggestions?trajectory=${e.trajectoryId}`)).json(),
    );
    expect(suggestions.filter((s) => s.source === "imported:failure-modes").map((s) => [s.stepStart, s.value])).toEqual([
      [1, "missing-dependency"],
    ]);
    expect(labelsSchema.parse(await (await request.get(`/api/v1/annotations?trajectory=${e.trajectoryId}`)).json()).labels).toEqual([]);
  }
  // Twice changes nothing.
  await page.reload();
  await table.locator("tbody tr").first().getByRole("button", { name: "Suggest category on its steps" }).click();
  await expect(table.locator("tbody tr").first().getByRole("status")).toContainText("0 suggested, 0 updated, 4 already");
});
