/**
 * Audit entries: security-relevant settings changes a person can read in the app (Settings →
 * Security → Activity for their account, a location's settings for its owner and admins). The
 * actions are a closed list; each entry's params are names only, under the closed list of keys
 * below, so no secret, token value, key or URL with credentials can ever be written into one.
 */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";

export const AUDIT_ACTIONS = [
  "token.created",
  "token.revoked",
  "webhook.created",
  "webhook.deleted",
  "share_link.created",
  "share_link.revoked",
  "oauth_grant.created",
  "oauth_grant.revoked",
  "ai_key.set",
  "ai_key.cleared",
  "location.deleted",
  "location.restored",
  "location.transferred",
  "member.joined",
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/**
 * What an entry may name: a token's name and scope, a webhook's host (never its URL, which may
 * carry credentials), what a share link shows, an OAuth client's name, an AI provider and whose
 * key it is, a location's name, the new owner's or member's name and role.
 */
export const AUDIT_PARAM_KEYS = ["name", "scope", "host", "target", "client", "provider", "location", "to", "member", "role"] as const;
export type AuditParamKey = (typeof AUDIT_PARAM_KEYS)[number];
export type AuditParams = Partial<Record<AuditParamKey, string>>;
export const auditParamsSchema = z.partialRecord(z.enum(AUDIT_PARAM_KEYS), z.string());

export const AUDIT_ACTOR_TYPES = ["user", "token", "mcp", "system"] as const;

export const auditEntrySchema = z
  .object({
    id: uuidSchema,
    action: auditActionSchema,
    at: timestampSchema,
    /** `name` is null for a person no longer known to the reader; `you` is the reader themself. */
    actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), name: z.string().nullable(), you: z.boolean() }),
    params: auditParamsSchema,
    locationId: uuidSchema.nullable(),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = pageOf(auditEntrySchema);
export type AuditList = z.infer<typeof auditListSchema>;
