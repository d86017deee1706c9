import { z } from "zod";
import { timestampSchema } from "./ids.js";

/** POST /api/v1/me/reauthenticate: the password again, for the sensitive routes that follow. */
export const reauthenticateBody = z.object({ password: z.string().min(1).max(256) }).strict();
export const reauthenticatedSchema = z.object({ ok: z.literal(true), validUntil: timestampSchema }).meta({ id: "Reauthenticated" });

/** POST /api/v1/me/email: a new sign-in address; the password unless re-authenticated just before. */
export const emailChangeBody = z.object({ email: z.email().max(320), password: z.string().min(1).max(256).optional() }).strict();
export const emailChangedSchema = z.object({ email: z.string() }).meta({ id: "EmailChanged" });

/** GET /api/v1/me/recovery-kit: what a person keeps on paper to get back in. */
export const recoveryKitSchema = z
  .object({
    account: z.string().meta({ description: "The sign-in email, or the username of a managed account" }),
    signInUrl: z.string(),
    twoFactorEnabled: z.boolean(),
    backupCodes: z.array(z.string()).meta({ description: "Unused backup codes; each works once" }),
    generatedAt: timestampSchema,
  })
  .meta({ id: "RecoveryKit" });
export type RecoveryKit = z.infer<typeof recoveryKitSchema>;
