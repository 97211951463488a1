"use server";
// Server actions: sign in, sign out, change one's own password. Next.js refuses cross-site action posts (Origin vs
// Host); better-auth's nextCookies plugin sets and clears the HTTP-only session cookie.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ActionError, defineAction } from "../../http/action.ts";
import { changePassword, signIn, signOut } from "../../services/accounts/sign-in.ts";
import { passwordSchema } from "../../domain/accounts.ts";

const signInSchema = z.object({
  username: z.string().trim().min(1, "enter your user name").max(64),
  password: z.string().min(1, "enter your password").max(256),
  // Only same-site paths: an open redirect after sign-in would make a phishing link look like ours.
  next: z
    .string()
    .regex(/^\/(?!\/)[^\s\\]*$/)
    .catch("/trajectories"),
});

export const signInAction = defineAction("public", signInSchema, async (_ctx, input): Promise<never> => {
  const outcome = await signIn(input, await headers());
  if (!outcome.ok) {
    if (outcome.reason === "throttled")
      throw new ActionError(`Too many failed attempts. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minute(s).`);
    if (outcome.reason === "disabled") throw new ActionError("This account is disabled. Ask an admin to enable it.");
    throw new ActionError("Wrong user name or password.");
  }
  redirect(input.next === "/sign-in" ? "/trajectories" : input.next);
});

export const signOutAction = defineAction("signed-in", z.unknown(), async (ctx): Promise<never> => {
  await signOut(ctx, await headers());
  redirect("/sign-in");
});

const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "enter your current password").max(256), newPassword: passwordSchema, confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "does not match the new password" });

export const changePasswordAction = defineAction("signed-in", changePasswordSchema, async (ctx, input) => {
  if (!(await changePassword(ctx, input, await headers()))) throw new ActionError("The current password is wrong.");
  return { message: "Password changed. Your other sessions were signed out." };
});
