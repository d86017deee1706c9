/** OAuth for MCP clients (spec "OAuth for MCP clients"): scopes and the grants a person can list and revoke. */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";

export const OAUTH_SCOPES = ["svc:read", "svc:write"] as const;
export const oauthScopeSchema = z.enum(OAUTH_SCOPES);
export type OAuthScope = z.infer<typeof oauthScopeSchema>;

export const oauthGrantSchema = z
  .object({
    id: uuidSchema,
    clientId: z.string(),
    clientName: z.string(),
    scopes: z.array(oauthScopeSchema),
    locationIds: z.array(uuidSchema),
    createdAt: timestampSchema,
    revokedAt: timestampSchema.nullable(),
  })
  .meta({ id: "OAuthGrant" });
export type OAuthGrant = z.infer<typeof oauthGrantSchema>;

/** GET /api/v1/oauth/grants: a page of grants, newest first (query: shared/paging.ts pageQuerySchema). */
export const oauthGrantListSchema = pageOf(oauthGrantSchema).meta({ id: "OAuthGrantList" });
export type OAuthGrantList = z.infer<typeof oauthGrantListSchema>;
