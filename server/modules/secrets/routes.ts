/**
 * /api/v1/things/:id/secrets/:fieldKey/reveal and /api/v1/type-fields/:id/convert[/preview].
 * Never open to personal tokens (server/modules/tokens/allow-list.ts refuses every `secrets` path
 * and lists none of these) nor to MCP (its tools do not reach them).
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { conversionPreviewSchema, conversionSchema, convertBody, revealedSecretSchema } from "../../../shared/secrets.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { convertField, previewConversion, revealSecret } from "./service.js";

export function secretRoutes(deps: ModuleDeps): RouteDef[] {
  const service = { ...deps.service, auth: deps.auth, limits: deps.limits };
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/secrets/:fieldKey/reveal",
      summary: "Reveal a secret field's value (re-authentication within 5 minutes; the owner's policy decides which roles may; audited in history)",
      tag: "things",
      // Any key: one that names no secret field of the thing's type is 404 like an unknown one.
      params: z.object({ id: uuidSchema, fieldKey: z.string().min(1).max(64) }),
      response: revealedSecretSchema,
      async handler({ actor, params, res }) {
        res.setHeader("Cache-Control", "no-store");
        return revealSecret(service, actor, params.id, params.fieldKey);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/type-fields/:id/convert/preview",
      summary: "What converting a field to or from secret would do, per location (owner only; changes nothing)",
      tag: "types",
      params: idParams,
      body: convertBody,
      response: conversionPreviewSchema,
      handler: ({ actor, params, body }) => previewConversion(service, actor, params.id, body.toSecret),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/type-fields/:id/convert",
      summary: "Convert a field to or from secret, moving every value (one that cannot take the new form goes into the thing's notes); owner only",
      tag: "types",
      params: idParams,
      body: convertBody,
      response: conversionSchema,
      handler: ({ actor, params, body }) => convertField(service, actor, params.id, body.toSecret),
    }),
  ] as RouteDef[];
}
