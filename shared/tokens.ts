/** Personal tokens (spec "Personal tokens"): request and response shapes of /api/v1/tokens. */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";

export const TOKEN_SCOPES = ["read", "write"] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

export const tokenCreateSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(80),
    scope: tokenScopeSchema,
    locationIds: z
      .array(uuidSchema)
      .min(1)
      .max(100)
      .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, "must not repeat a location"),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: "TokenCreate" });
export type TokenCreate = z.infer<typeof tokenCreateSchema>;

/** A token as listed: never its secret, only the public `svt_<lookup>_…` prefix to recognise it by. */
export const tokenSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    prefix: z.string(),
    scope: tokenScopeSchema,
    locationIds: z.array(uuidSchema),
    expiresAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    lastUsedAt: timestampSchema.nullable(),
    revokedAt: timestampSchema.nullable(),
  })
  .meta({ id: "Token" });
export type Token = z.infer<typeof tokenSchema>;

/** The answer to creation, the only time the secret is ever shown. */
export const tokenCreatedSchema = tokenSchema.extend({ secret: z.string() }).meta({ id: "TokenCreated" });
export type TokenCreated = z.infer<typeof tokenCreatedSchema>;

/** GET /api/v1/tokens: a page of tokens, newest first (query: shared/paging.ts pageQuerySchema). */
export const tokenListSchema = pageOf(tokenSchema).meta({ id: "TokenList" });
export type TokenList = z.infer<typeof tokenListSchema>;
