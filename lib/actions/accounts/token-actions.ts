"use server";
// Server actions for the API tokens page: create (shown once) and revoke one's own tokens; admins any token.
import { z } from "zod";
import { defineAction } from "../../http/action.ts";
import { createApiTokenFor, revokeApiToken } from "../../services/accounts/api-tokens.ts";

export const createTokenAction = defineAction(
  "signed-in",
  z.object({ name: z.string().trim().min(1, "give the token a name").max(100) }),
  async (ctx, { name }) => {
    const t = await createApiTokenFor(ctx, { tokenName: name });
    return { message: `Token "${name}" created. Copy it now; it is not shown again:`, secret: t.token };
  },
  { revalidate: "/account/tokens" },
);

export const revokeTokenAction = defineAction(
  "signed-in",
  z.object({ id: z.string().trim().min(1).max(64) }),
  async (ctx, { id }) => ({ message: (await revokeApiToken(ctx, id)).revoked ? "Token revoked." : "That token was already revoked." }),
  { revalidate: "/account/tokens" },
);
