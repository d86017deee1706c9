/** Instance setup and administration (spec "Sign-up" 2, "Roles in a location": instance admins). */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";

/** POST /api/v1/setup: the one-time setup code printed at start, and the first admin's account. */
export const setupBody = z
  .object({
    code: z.string().trim().min(1).max(200),
    email: z.email().max(320),
    name: z.string().trim().min(1).max(120),
    password: z.string().min(8).max(256),
  })
  .strict();
export type SetupBody = z.infer<typeof setupBody>;
export const setupDoneSchema = z.object({ status: z.literal("ready"), userId: uuidSchema }).meta({ id: "SetupDone" });

/**
 * GET/PATCH /api/v1/admin/settings. `signupOpen` is the instance setting; `signupOpenByConfig` says
 * SVC_SIGNUP_OPEN keeps sign-up open whatever the setting says.
 */
export const adminSettingsSchema = z.object({ signupOpen: z.boolean(), signupOpenByConfig: z.boolean() }).meta({ id: "AdminSettings" });
export type AdminSettings = z.infer<typeof adminSettingsSchema>;
export const adminSettingsPatch = z.object({ signupOpen: z.boolean() }).strict();

export const adminUserSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    /** Null for a managed account (its synthetic address is never shown). */
    email: z.string().nullable(),
    username: z.string().nullable(),
    instanceAdmin: z.boolean(),
    createdAt: timestampSchema,
  })
  .meta({ id: "AdminUser" });
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = pageOf(adminUserSchema).meta({ id: "AdminUserList" });
export type AdminUserList = z.infer<typeof adminUserListSchema>;
