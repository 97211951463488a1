// Schema editor and attempt rankings, on SQLite and PostgreSQL: editing a schema never rewrites labels,
// retired options stay readable, JSON export/import round-trips and a bad file writes nothing (errors name schema
// and field); a ranking label orders exactly the attempts of one fork point, with history and 409.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { createLabel, updateLabel } from "../../lib/services/annotation/save-label.ts";
import { getLabelHistory, listLabels } from "../../lib/services/annotation/list-labels.ts";
import { exportSchemas, getSchema, importSchemas, listSchemasForEditor, saveSchema } from "../../lib/services/annotation/manage-schemas.ts";
import { getLabellingView } from "../../lib/services/annotation/labelling-view.ts";
import { isAppError } from "../../lib/errors.ts";

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return { code: isAppError(e) ? e.code : (e as Error).name, message: (e as Error).message };
  }
  throw new Error("expected a failure");
}

describe.each(PROVIDERS)("schema editor and rankings on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let alice: ServiceContext;
  let bob: ServiceContext;
  let traj: { id: string };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 30, seed: 7 });
    alice = await t.as("alice", "annotator");
    bob = await t.as("bob", "annotator");
    traj = await t.db.trajectory.findFirstOrThrow({ where: { parentId: null }, orderBy: { id: "asc" }, select: { id: true } });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("editing a schema never rewrites labels; a dropped option is retired and still reads on old labels", async () => {
    const s = await saveSchema(t.ctx, {
      key: "cause",
      name: "Cause",
      kind: "categorical",
      targets: ["trajectory"],
      description: "Why it failed",
      options: [
        { value: "env", label: "Environment", hotkey: "1", description: "The sandbox broke" },
        { value: "env-net", label: "Network", parent: "env", hotkey: "2" },
        { value: "agent", label: "Agent", hotkey: "3" },
      ],
    });
    const a = await createLabel(alice, { trajectory: traj.id, schema: "cause", value: "env-net" });
    const b = await createLabel(bob, { trajectory: traj.id, schema: "cause", value: "agent" });
    const rowsBefore = await t.db.annotation.findMany({ where: { schemaId: s.id }, orderBy: { id: "asc" } });
    const eventsBefore = await t.db.annotationEvent.count();

    // Rename an option, drop another, re-key a hotkey, change the description.
    const edited = await saveSchema(
      t.ctx,
      {
        key: "cause",
        name: "Root cause",
        kind: "categorical",
        targets: ["trajectory", "step_range"],
        description: "Where the failure came from",
        options: [
          { value: "env", label: "Sandbox", hotkey: "1" },
          { value: "agent", label: "The agent", hotkey: "4" },
        ],
      },
      s.updatedAt,
    );
    expect(edited.options.map((o) => [o.value, !!o.retired])).toEqual([
      ["env", false],
      ["agent", false],
      ["env-net", true],
    ]);
    expect(edited.options.find((o) => o.value === "env-net")).toMatchObject({ label: "Network", parent: "env" });
    expect(edited.options.find((o) => o.value === "env-net")!.hotkey).toBeUndefined(); // its key is free for others

    const rowsAfter = await t.db.annotation.findMany({ where: { schemaId: s.id }, orderBy: { id: "asc" } });
    expect(rowsAfter.map((r) => [r.id, r.value, r.version, r.updatedAt.toISOString()])).toEqual(
      rowsBefore.map((r) => [r.id, r.value, r.version, r.updatedAt.toISOString()]),
    );
    expect(await t.db.annotationEvent.count()).toBe(eventsBefore);

    // Alice's label still reads (retired option), may keep its value on a comment edit, but nobody picks it anew.
    const view = await getLabellingView(alice, traj.id);
    const schema = view.schemas.find((x) => x.key === "cause")!;
    expect(schema.options.find((o) => o.value === "env-net")).toMatchObject({ label: "Network", retired: true });
    expect((await listLabels(alice, { trajectory: traj.id, schema: "cause" })).labels.map((l) => l.value)).toEqual(["env-net"]);
    expect((await updateLabel(alice, { id: a.id, version: a.version, value: "env-net", comment: "still network" })).version).toBe(2);
    expect((await failure(updateLabel(bob, { id: b.id, version: b.version, value: "env-net" }))).message).toMatch(/retired/);
    expect((await getSchema(t.ctx, "cause")).labelCount).toBe(2);
    expect((await listSchemasForEditor(t.ctx)).find((x) => x.key === "cause")!.labelCount).toBe(2);
  });

  it.skipIf(skip)("hotkeys are unique per schema and never a navigation key; kind cannot change; only admins edit", async () => {
    const dup = await failure(
      saveSchema(t.ctx, {
        key: "dupkeys",
        name: "D",
        kind: "ordinal",
        targets: ["attempt"],
        options: [
          { value: "0", label: "Zero", hotkey: "1" },
          { value: "1", label: "One", hotkey: "1" },
        ],
      }),
    );
    expect(JSON.parse(dup.message)).toMatchObject([{ path: ["options", 1, "hotkey"], message: 'hotkey "1" is used twice' }]);
    const s = await saveSchema(t.ctx, { key: "flag", name: "Flag", kind: "boolean", targets: ["attempt"] });
    expect(
      (await failure(saveSchema(t.ctx, { key: "flag", name: "Flag", kind: "text", targets: ["attempt"] }, s.updatedAt))).message,
    ).toMatch(/^kind: a schema's kind cannot change/);
    expect((await failure(saveSchema(t.ctx, { key: "new", name: "N", kind: "text", targets: ["trajectory"] }))).message).toMatch(
      /reserved/,
    );
    expect((await failure(saveSchema(alice, { key: "mine", name: "M", kind: "text", targets: ["trajectory"] }))).code).toBe("FORBIDDEN");
    expect((await failure(listSchemasForEditor(alice))).code).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("JSON export/import round-trips; a bad file names schema and field and writes nothing", async () => {
    const json = await exportSchemas(t.ctx);
    const before = JSON.parse(json) as { key: string }[];
    expect(before.map((s) => s.key)).toEqual(expect.arrayContaining(["error-category", "attempt-ranking", "cause"]));
    const r = await importSchemas(t.ctx, json);
    expect(r.created).toEqual([]);
    expect(r.updated.sort()).toEqual(before.map((s) => s.key).sort());
    expect(JSON.parse(await exportSchemas(t.ctx))).toEqual(before);

    const schemasBefore = await t.db.labelSchema.findMany({ orderBy: { key: "asc" } });
    const bad = JSON.stringify([
      { key: "fresh-one", name: "Fresh", kind: "text", targets: ["trajectory"] },
      {
        key: "fresh-two",
        name: "Two",
        kind: "categorical",
        targets: ["trajectory"],
        options: [
          { value: "a", label: "A", hotkey: "q" },
          { value: "b", label: "B", hotkey: "q" },
        ],
      },
    ]);
    expect((await failure(importSchemas(t.ctx, bad))).message).toBe('schemas[1] (fresh-two): options[1].hotkey: hotkey "q" is used twice');
    const kindChange = JSON.stringify([
      { key: "fresh-one", name: "Fresh", kind: "text", targets: ["trajectory"] },
      { key: "cause", name: "Cause", kind: "ordinal", targets: ["trajectory"], options: [{ value: "env", label: "E" }] },
    ]);
    expect((await failure(importSchemas(t.ctx, kindChange))).message).toMatch(
      /^schemas\[1\] \(cause\): kind: a schema's kind cannot change/,
    );
    expect((await failure(importSchemas(t.ctx, "[{"))).message).toMatch(/^not JSON/);
    expect(
      (await failure(importSchemas(t.ctx, JSON.stringify([{ key: "x", name: "X", kind: "weird", targets: ["trajectory"] }])))).message,
    ).toMatch(/^schemas\[0\] \(x\): kind: /);
    expect(await t.db.labelSchema.findMany({ orderBy: { key: "asc" } })).toEqual(schemasBefore);
    expect((await failure(importSchemas(alice, json))).code).toBe("FORBIDDEN");
  });

  it.skipIf(skip)("a ranking orders exactly the attempts of one fork point, with history and 409 on a stale save", async () => {
    const forks = await t.db.forkPoint.findMany({
      select: { id: true, trajectoryId: true, stepIndex: true, _count: { select: { attempts: true } } },
    });
    const fork = forks.find((f) => f._count.attempts >= 3) ?? forks.find((f) => f._count.attempts >= 2);
    expect(fork, "the demo data has a fork point with at least two attempts").toBeTruthy();
    const attempts = (
      await t.db.trajectory.findMany({ where: { forkPointId: fork!.id }, orderBy: { attemptIndex: "asc" }, select: { id: true } })
    ).map((a) => a.id);
    const other = forks.find((f) => f.id !== fork!.id && f._count.attempts > 0)!;
    const foreign = (await t.db.trajectory.findFirstOrThrow({ where: { forkPointId: other.id }, select: { id: true } })).id;
    const target = { forkStep: fork!.stepIndex };

    const created = await createLabel(alice, { trajectory: fork!.trajectoryId, schema: "attempt-ranking", value: attempts, target });
    expect(created).toMatchObject({
      targetType: "fork_point",
      targetKey: `fork:${fork!.trajectoryId}:${fork!.stepIndex}`,
      value: JSON.stringify(attempts),
      version: 1,
    });
    const reversed = [...attempts].reverse();
    const changed = await updateLabel(alice, { id: created.id, version: 1, value: JSON.stringify(reversed) });
    expect(changed).toMatchObject({ version: 2, value: JSON.stringify(reversed) });
    // A second tab still holding version 1 is refused, naming who changed it.
    const stale = await failure(updateLabel(alice, { id: created.id, version: 1, value: JSON.stringify(attempts) }));
    expect(stale.code).toBe("CONFLICT");
    expect(stale.message).toMatch(/changed by alice/);
    expect(
      (await failure(createLabel(alice, { trajectory: fork!.trajectoryId, schema: "attempt-ranking", value: attempts, target }))).code,
    ).toBe("CONFLICT");

    expect(
      (
        await failure(
          createLabel(bob, { trajectory: fork!.trajectoryId, schema: "attempt-ranking", value: [...attempts.slice(1), foreign], target }),
        )
      ).message,
    ).toMatch(/^value: not attempts of this fork point/);
    expect(
      (
        await failure(
          createLabel(bob, {
            trajectory: fork!.trajectoryId,
            schema: "attempt-ranking",
            value: attempts.slice(0, 1).concat(attempts.slice(0, 1)),
            target,
          }),
        )
      ).message,
    ).toMatch(/distinct/);
    if (attempts.length >= 3)
      expect(
        (
          await failure(
            createLabel(bob, { trajectory: fork!.trajectoryId, schema: "attempt-ranking", value: attempts.slice(0, 2), target }),
          )
        ).message,
      ).toMatch(new RegExp(`leaves out ${attempts.length - 2} of the fork point's ${attempts.length} attempts`));
    expect(
      (await failure(createLabel(bob, { trajectory: fork!.trajectoryId, schema: "attempt-ranking", value: attempts }))).message,
    ).toMatch(/^target: /);
    expect(
      (await failure(updateLabel(alice, { id: created.id, version: 2, value: JSON.stringify([...attempts.slice(1), foreign]) }))).message,
    ).toMatch(/not attempts of this fork point/);

    const history = (await getLabelHistory(alice, fork!.trajectoryId)).filter((e) => e.annotationId === created.id);
    expect(history.map((e) => e.action).sort()).toEqual(["create", "update"]);
    // Rankings are labelled in the compare view, not offered in the labelling panel.
    expect((await getLabellingView(alice, fork!.trajectoryId)).schemas.map((s) => s.key)).not.toContain("attempt-ranking");
  });
});
