// Account names and passwords: the rules both the CLI and the admin pages apply.
import { z } from "zod";
import { ROLES } from "./authz.ts";

/** Lowercase letters, digits, dot, dash, underscore; starts with a letter or digit. Also the sign-in name. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,63}$/;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(USERNAME_PATTERN, "must be 2–64 characters: lowercase letters, digits, '.', '-' or '_' (starting with a letter or digit)");

export const roleSchema = z.enum(ROLES);

export const MIN_PASSWORD_LENGTH = 12;
export const passwordSchema = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(256);
