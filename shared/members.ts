import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";
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

export const inviteCreateBody = z.object({ email: z.email().max(320).optional(), role: roleSchema.exclude(["owner"]) }).strict();
/** POST /locations/:id/invites: the token, shown once; `mailed` when the invite names an address and the mail went out. */
export const inviteCreatedSchema = z
  .object({ id: uuidSchema, token: z.string(), expiresAt: timestampSchema, mailed: z.boolean() })
  .meta({ id: "InviteCreated" });
export const inviteAcceptBody = z.object({ token: z.string().min(1).max(200) }).strict();

/** GET /locations/:id/members: a page of members, oldest membership first (query: shared/paging.ts pageQuerySchema). */
export const memberListSchema = pageOf(memberSchema).meta({ id: "MemberList" });
export type MemberList = z.infer<typeof memberListSchema>;

/** PATCH /locations/:id/members/:userId. `rowVersion` is the member's version the caller last saw. */
export const memberPatchBody = z.object({ role: roleSchema, rowVersion: z.number().int().min(1).optional() }).strict();
export type MemberPatchBody = z.infer<typeof memberPatchBody>;

/** DELETE /locations/:id/members/:userId; `txid` is the transaction the shape stream will show. */
export const memberRemovedSchema = z.object({ ok: z.literal(true), txid: z.string() }).meta({ id: "MemberRemoved" });
export type MemberRemoved = z.infer<typeof memberRemovedSchema>;

export type InviteCreateBody = z.infer<typeof inviteCreateBody>;
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;
export type InviteAcceptBody = z.infer<typeof inviteAcceptBody>;
/** The location the accepting user now belongs to, with their role there (an existing higher role is kept). */
export const inviteAcceptedSchema = z.object({ locationId: uuidSchema, role: roleSchema }).meta({ id: "InviteAccepted" });
export type InviteAccepted = z.infer<typeof inviteAcceptedSchema>;

/** An invitation as owners and admins see it (never its token). */
export const inviteSchema = z
  .object({
    id: uuidSchema,
    email: z.string().nullable(),
    role: roleSchema,
    status: z.enum(["pending", "accepted", "revoked", "expired"]),
    createdAt: timestampSchema,
    expiresAt: timestampSchema,
    createdByName: z.string().nullable(),
  })
  .meta({ id: "Invite" });
export type Invite = z.infer<typeof inviteSchema>;
/** GET /locations/:id/invites: newest first. */
export const inviteListSchema = pageOf(inviteSchema).meta({ id: "InviteList" });
export type InviteList = z.infer<typeof inviteListSchema>;
/** POST /invites/:id/resend: a new token (the old one stops working) and a new expiry; mailed when the invite names an address. */
export const inviteResentSchema = z.object({ id: uuidSchema, token: z.string(), expiresAt: timestampSchema, mailed: z.boolean() }).meta({ id: "InviteResent" });
export type InviteResent = z.infer<typeof inviteResentSchema>;

/**
 * POST /invites/preview: what the holder of a live invite token is asked to accept, before
 * accepting and without signing in: the location, who invited and as what role. A dead or unknown
 * token answers 404, so the answer says nothing to anyone without a live token.
 */
export const invitePreviewSchema = z
  .object({
    locationName: z.string(),
    invitedBy: z.string().nullable(),
    role: roleSchema,
    expiresAt: timestampSchema,
    /** True when only one address may accept (the person signs up or in with that address). */
    forOneAddress: z.boolean(),
  })
  .meta({ id: "InvitePreview" });
export type InvitePreview = z.infer<typeof invitePreviewSchema>;
