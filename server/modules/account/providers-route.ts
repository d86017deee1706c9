/** GET /api/v1/auth/providers: the external sign-in providers this server offers right now. */
import { z } from "zod";
import type { Config } from "../../config.js";
import { defineRoute } from "../../http/route.js";

export const providersSchema = z.object({ items: z.array(z.object({ id: z.enum(["oidc", "social"]), host: z.string() })) }).meta({ id: "SignInProviders" });

export function providersRoute(config: Config) {
  return defineRoute({
    method: "get",
    path: "/api/v1/auth/providers",
    summary: "External sign-in providers offered (OIDC, social); only those whose discovery worked",
    tag: "auth",
    auth: "none",
    response: providersSchema,
    // Only what a sign-in page shows: never client ids or secrets.
    handler: async () => ({ items: config.signInProviders.map((p) => ({ id: p.id, host: new URL(p.issuer).host })) }),
  });
}
