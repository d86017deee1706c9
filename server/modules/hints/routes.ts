/** PUT /api/v1/me/hints/{key} and GET /api/v1/me/hints: a person's first-use hints (never a token's: /me is off the allow-list). */
import { z } from "zod";
import { hintKeySchema, hintListSchema, hintPutBody, hintSchema } from "../../../shared/hints.js";
import { defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { listHints, putHint } from "./service.js";

export function hintRoutes({ db }: Pick<RouteDeps, "db">): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me/hints",
      summary: "The hints you have seen or dismissed",
      tag: "me",
      response: hintListSchema,
      handler: async ({ actor }) => ({ items: await listHints(db, actor), next_cursor: null }),
    }),
    defineRoute({
      method: "put",
      path: "/api/v1/me/hints/:key",
      summary: "Mark a hint seen or dismissed (or not) for all your devices",
      tag: "me",
      params: z.object({ key: hintKeySchema }).strict(),
      body: hintPutBody,
      response: hintSchema,
      handler: ({ actor, params, body }) => putHint(db, actor, params.key, body),
    }),
  ];
}
