/**
 * POST /api/v1/auth/magic-link/verify {token}: the only way a magic link is redeemed (spec "Ways
 * to sign in"); the library's GET is switched off. The library's own endpoint does the work when
 * called from here (server-side calls ignore disabledPaths), and its session cookie is passed on.
 * The 30-an-hour limit on redemptions is applied at the edge (server/auth/mount.ts).
 */
import { fromNodeHeaders } from "better-auth/node";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { ValidationError } from "../../errors/classes.js";
import { defineRoute } from "../../http/route.js";
import type { Auth } from "../../auth/auth.js";
import { stripTokens } from "../../auth/auth.js";

export const magicLinkVerifyBody = z.object({ token: z.string().min(1).max(200) }).strict();

export const signedInSchema = z
  .object({
    user: z.object({ id: z.string(), name: z.string() }).loose(),
    twoFactorRedirect: z.boolean().optional().meta({ description: "True when the session waits for a second factor" }),
  })
  .loose()
  .meta({ id: "SignedIn" });

export function magicLinkVerifyRoute(deps: { db: Db; auth: Auth }) {
  const { auth } = deps;
  return defineRoute({
    method: "post",
    path: "/api/v1/auth/magic-link/verify",
    summary: "Redeem a magic-link token (from the link's #token= fragment) and sign in",
    tag: "auth",
    auth: "none",
    body: magicLinkVerifyBody,
    response: signedInSchema,
    async handler({ req, res, body }) {
      const response = await auth.api.magicLinkVerify({
        query: { token: body.token },
        headers: fromNodeHeaders(req.headers),
        asResponse: true,
      });
      // Without a callback URL the library answers 200 with JSON; a bad token is a redirect.
      if (response.status !== 200) throw new ValidationError("This sign-in link is invalid, already used or expired; ask for a new one.");
      for (const cookie of response.headers.getSetCookie()) res.append("set-cookie", cookie);
      return stripTokens(await response.json()) as z.infer<typeof signedInSchema>;
    },
  });
}
