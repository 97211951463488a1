import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "../errors.ts";

const calls = vi.hoisted(() => ({ context: [] as (string | undefined)[], revalidated: [] as string[], refuse: false }));
vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({ revalidatePath: (p: string) => void calls.revalidated.push(p) }));
vi.mock("../services/page-context.ts", () => ({
  getPageContext: async (permission?: string) => {
    calls.context.push(permission);
    if (calls.refuse) throw Object.assign(new Error("NEXT_REDIRECT"), { digest: "NEXT_REDIRECT;replace;/forbidden;307;" });
    return { db: null, actor: { id: "u1", name: "ada", role: "admin" } };
  },
}));

const { defineAction, formInput, ActionError } = await import("./action.ts");

beforeEach(() => {
  calls.context = [];
  calls.revalidated = [];
  calls.refuse = false;
});

describe("defineAction", () => {
  const schema = z.object({ name: z.string().min(2, "too short"), tags: z.array(z.string()).optional() });

  it("checks the permission before reading the input, and never parses for a refused caller", async () => {
    const parse = vi.spyOn(schema, "parse");
    const act = defineAction("dataset:write", schema, async (_ctx, v) => v.name);
    calls.refuse = true;
    await expect(act({ name: "x" })).rejects.toMatchObject({ digest: expect.stringContaining("/forbidden") });
    expect(calls.context).toEqual(["dataset:write"]);
    expect(parse).not.toHaveBeenCalled();
    expect(act.need).toBe("dataset:write");
  });

  it("passes the acting user and parsed input to the call, revalidates, and returns data", async () => {
    const act = defineAction("signed-in", schema, async (ctx, v) => `${ctx.actor.name}:${v.name}`, { revalidate: (v) => `/x/${v.name}` });
    expect(await act({ name: "abc" })).toEqual({ ok: true, data: "ada:abc" });
    expect(calls.context).toEqual([undefined]);
    expect(calls.revalidated).toEqual(["/x/abc"]);
  });

  it("answers bad input with the field and message, and revalidates nothing", async () => {
    const act = defineAction("dataset:write", schema, async () => "never", { revalidate: "/x" });
    expect(await act({ name: "a", tags: [1] } as never)).toEqual({
      ok: false,
      error: "name: too short; tags[0]: Invalid input: expected string, received number",
      fieldErrors: { name: "too short", "tags.0": "Invalid input: expected string, received number" },
    });
    expect(calls.revalidated).toEqual([]);
  });

  it("shows the app's own errors, hides a bug behind a generic message, and lets Next's redirects through", async () => {
    const errorLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const throwing = (e: unknown) =>
      defineAction("public", z.unknown(), async () => {
        throw e;
      });
    expect(await throwing(new AppError("CONFLICT", "changed meanwhile"))({})).toEqual({ ok: false, error: "changed meanwhile" });
    expect(await throwing(new ActionError("wrong password"))({})).toEqual({ ok: false, error: "wrong password" });
    expect(await throwing(new TypeError("x is undefined"))({})).toEqual({
      ok: false,
      error: "Something went wrong on the server; see its log.",
    });
    expect(errorLog).toHaveBeenCalledOnce();
    const redirect = Object.assign(new Error("NEXT_REDIRECT"), { digest: "NEXT_REDIRECT;replace;/datasets;307;" });
    await expect(throwing(redirect)({})).rejects.toBe(redirect);
    expect(calls.context).toEqual([]);
    errorLog.mockRestore();
  });

  it("reads a form: through useActionState (previous, form) it returns the result; as a bare form action, nothing", async () => {
    const act = defineAction("dataset:write", schema, async (_ctx, v) => v);
    const form = new FormData();
    form.append("name", "abc");
    form.append("tags", "a");
    form.append("tags", "b");
    expect(await act(null, form)).toEqual({ ok: true, data: { name: "abc", tags: ["a", "b"] } });
    expect(await act(form)).toBeUndefined();
    expect(calls.context).toEqual(["dataset:write", "dataset:write"]);
  });
});

describe("formInput", () => {
  it("keeps a field given once as its value and one given several times as a list", () => {
    const form = new FormData();
    form.append("one", "1");
    form.append("many", "a");
    form.append("many", "b");
    expect(formInput(form)).toEqual({ one: "1", many: ["a", "b"] });
  });
});
