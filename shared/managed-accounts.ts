import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Spec Limits: managed accounts per location. */
export const MAX_MANAGED_ACCOUNTS = 20;

/** Same rules as sign-in/username: 3-30 of letters, digits, `_` and `.`; stored in lower case. */
export const usernameSchema = z
  .string()
  .trim()
  .min(3)
  .max(30)
  .regex(/^[a-zA-Z0-9_.]+$/, "letters, digits, _ and . only")
  .transform((u) => u.toLowerCase());

export const managedAccountCreateBody = z.object({ username: usernameSchema, displayName: z.string().trim().min(1).max(120) }).strict();

/** The one-time code is shown here once, for the admin to hand over; only its keyed hash is kept. */
export const managedAccountCodeSchema = z
  .object({ id: uuidSchema, code: z.string().meta({ description: "One-time code, valid 7 days" }) })
  .meta({ id: "ManagedAccountCode" });
export type ManagedAccountCode = z.infer<typeof managedAccountCodeSchema>;

/** POST /api/v1/auth/reset-code: the person sets their own password with the code. */
export const resetCodeBody = z
  .object({ username: z.string().trim().min(1).max(30), code: z.string().trim().min(1).max(40), password: z.string().min(8).max(256) })
  .strict();
export const resetCodeDoneSchema = z.object({ status: z.literal(true) }).meta({ id: "ResetCodeDone" });
