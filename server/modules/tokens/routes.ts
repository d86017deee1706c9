/** /api/v1/tokens: create (secret shown once), list and revoke personal tokens, from a session only. */
import { pageQuerySchema } from "../../../shared/paging.js";
import { tokenCreatedSchema, tokenCreateSchema, tokenListSchema, tokenSchema } from "../../../shared/tokens.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import type { TokenHasher } from "./secret.js";
import { createToken, listTokens, revokeToken } from "./service.js";

export function tokenRoutes({ db }: RouteDeps, hasher: TokenHasher): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/tokens",
      summary: "Create a personal token; the secret is in this answer only",
      tag: "tokens",
      body: tokenCreateSchema,
      response: tokenCreatedSchema,
      status: 201,
      handler: ({ actor, body, res }) => {
        // The secret must not sit in any cache.
        res.setHeader("Cache-Control", "no-store");
        return createToken(db, hasher, actor, body);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/tokens",
      summary: "Your personal tokens (never their secrets)",
      tag: "tokens",
      query: pageQuerySchema,
      response: tokenListSchema,
      handler: ({ actor, query }) => listTokens(db, actor, query),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/tokens/:id",
      summary: "Revoke one of your personal tokens",
      tag: "tokens",
      params: idParams,
      response: tokenSchema,
      handler: ({ actor, params }) => revokeToken(db, actor, params.id),
    }),
  ] as RouteDef[];
}
