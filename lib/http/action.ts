// One wrapper for every server action, as route.ts is for route handlers: the acting user and the permission first
// (getPageContext: anonymous → sign-in, a role without it → forbidden, before any input is read), then the input
// through its zod schema, the service call, revalidation, and one result type (action-result.ts). Expected failures
// (bad input, AppErrors) become a message for the form; Next's redirects pass through; anything else is logged.
import "server-only";
import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { isAppError } from "../errors.ts";
import { getPageContext } from "../services/page-context.ts";
import type { ServiceContext } from "../services/context.ts";
import type { Permission } from "../domain/authz.ts";
import type { ActionFailure, ActionResult } from "./action-result.ts";

export type { ActionFailure, ActionResult };

/** Who may call an action: a permission, anyone signed in, or anyone at all (sign-in itself). */
export type ActionNeed = Permission | "signed-in" | "public";

/**
 * Called directly with its input; as a plain `<form action>` with the FormData (React ignores what a form action
 * returns, so nothing is); or through useActionState with the previous result and the FormData.
 */
export interface Action<I, T> {
  (input: I): Promise<ActionResult<T>>;
  (form: FormData): Promise<void>;
  (previous: ActionResult<T> | null, form: FormData): Promise<ActionResult<T>>;
  /** What the action requires, for the route × role matrix to compare with its table. */
  readonly need: ActionNeed;
}

export interface ActionOptions<O, T> {
  /** Paths to revalidate after the call succeeded. */
  revalidate?: string | ((input: O, data: T) => string);
  /** Where to send the caller after success (after revalidating): the result is then never returned. */
  redirect?: (input: O, data: T) => string;
}

/**
 * `export const doThing = defineAction("dataset:write", inputSchema, (ctx, input) => service(ctx, input))`.
 * The permission is checked before the input is parsed, so a caller who may not act is refused rather than told
 * about an input they were never allowed to send; services check again with authorize().
 */
export function defineAction<N extends ActionNeed, S extends z.ZodType, T>(
  need: N,
  schema: S,
  fn: (ctx: N extends "public" ? null : ServiceContext, input: z.output<S>) => Promise<T>,
  options: ActionOptions<z.output<S>, T> = {},
): Action<z.input<S>, T> {
  const action = async (...args: unknown[]): Promise<ActionResult<T> | undefined> => {
    const result = await run(
      args.length >= 2 && args[1] instanceof FormData ? formInput(args[1]) : args[0] instanceof FormData ? formInput(args[0]) : args[0],
    );
    return args.length === 1 && args[0] instanceof FormData ? undefined : result;
  };
  const run = async (raw: unknown): Promise<ActionResult<T>> => {
    const ctx = need === "public" ? null : await getPageContext(need === "signed-in" ? undefined : need);
    let input: z.output<S>;
    let data: T;
    try {
      input = schema.parse(raw);
      data = await fn(ctx as N extends "public" ? null : ServiceContext, input);
    } catch (e) {
      return actionFailure(e);
    }
    if (options.revalidate) revalidatePath(typeof options.revalidate === "string" ? options.revalidate : options.revalidate(input, data));
    if (options.redirect) redirect(options.redirect(input, data));
    return { ok: true, data };
  };
  return Object.defineProperty(action, "need", { value: need }) as unknown as Action<z.input<S>, T>;
}

/** A form's fields as an object: a name given once is its value, a name given several times the list of values. */
export function formInput(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** A form field that may be given once or several times (checkboxes), always as a list. */
export function listField<S extends z.ZodType>(item: S) {
  return z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), z.array(item));
}

/** A failure the action itself decides on (a wrong password, a file that is not JSON), shown to the caller as is. */
export class ActionError extends Error {}

function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** Bad input and the app's own errors become a message (and field errors); Next's redirects and 404s pass through. */
export function actionFailure(e: unknown): ActionFailure {
  unstable_rethrow(e);
  if (e instanceof z.ZodError) {
    const fieldErrors = Object.fromEntries(e.issues.map((i) => [i.path.join("."), i.message]));
    return { ok: false, error: e.issues.map((i) => `${issuePath(i.path) || "input"}: ${i.message}`).join("; "), fieldErrors };
  }
  if (isAppError(e) || e instanceof ActionError) return { ok: false, error: e.message };
  console.error(e);
  return { ok: false, error: "Something went wrong on the server; see its log." };
}
