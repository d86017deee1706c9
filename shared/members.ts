import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { roleSchema } from "./roles.js";

export const memberSchema = z
  .object({
    userId: uuidSchema,
    displayName: z.string(),
    email: z.string().nullable(),
    role: roleSchema,
    joinedAt: timestampSchema,
    rowVersion: z.number().int(),
  })
  .meta({ id: "Member" });
export type Member = z.infer<typeof memberSchema>;

export const memberUpdateArgs = z.object({ userId: uuidSchema, role: roleSchema }).strict();
export type MemberUpdateArgs = z.infer<typeof memberUpdateArgs>;
export const memberRemoveArgs = z.object({ userId: uuidSchema }).strict();
export type MemberRemoveArgs = z.infer<typeof memberRemoveArgs>;

export const inviteCreateBody = z
  .object({ email: z.email().max(320).optional(), role: roleSchema.exclude(["owner"]) })
  .strict();
export const inviteCreatedSchema = z
  .object({ id: uuidSchema, token: z.string(), expiresAt: timestampSchema })
  .meta({ id: "InviteCreated" });
export const inviteAcceptBody = z.object({ token: z.string().min(1).max(200) }).strict();
