"use server";
// Server actions: sign in, sign out, change one's own password. Next.js refuses cross-site action posts (Origin vs
// Host); better-auth's nextCookies plugin sets and clears the HTTP-only session cookie.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getPageContext } from "../../services/page-context.ts";
import { changePassword, signIn, signOut } from "../../services/auth/sign-in.ts";
import { passwordSchema } from "../../domain/accounts.ts";
import { toActionError, type ActionResult } from "./result.ts";

const signInSchema = z.object({
  username: z.string().trim().min(1, "enter your user name").max(64),
  password: z.string().min(1, "enter your password").max(256),
  // Only same-site paths: an open redirect after sign-in would make a phishing link look like ours.
  next: z.string().regex(/^\/(?!\/)[^\s\\]*$/).catch("/trajectories"),
});

export async function signInAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return toActionError(parsed.error);
  const outcome = await signIn(parsed.data, await headers());
  if (!outcome.ok) {
    if (outcome.reason === "throttled") return { ok: false, error: `Too many failed attempts. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minute(s).` };
    if (outcome.reason === "disabled") return { ok: false, error: "This account is disabled. Ask an admin to enable it." };
    return { ok: false, error: "Wrong user name or password." };
  }
  redirect(parsed.data.next === "/sign-in" ? "/trajectories" : parsed.data.next);
}

export async function signOutAction(): Promise<void> {
  const ctx = await getPageContext();
  await signOut(ctx, await headers());
  redirect("/sign-in");
}

const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "enter your current password").max(256), newPassword: passwordSchema, confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "does not match the new password" });

export async function changePasswordAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext();
  try {
    const input = changePasswordSchema.parse(Object.fromEntries(form));
    const ok = await changePassword(ctx, input, await headers());
    return ok ? { ok: true, message: "Password changed. Your other sessions were signed out." } : { ok: false, error: "The current password is wrong." };
  } catch (e) {
    return toActionError(e);
  }
}
