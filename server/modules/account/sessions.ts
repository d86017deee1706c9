/**
 * The signed-in devices of a user: GET /api/v1/me/sessions and DELETE /api/v1/me/sessions/:id (the
 * library's own listing and revocation are switched off, spec "Sign-up" 4), and DELETE
 * /api/v1/me/sessions, "sign out everywhere else" (every session of the user but the caller's). HTTP
 * only: the account's service reads and deletes the rows (never their token column).
 */
import { pageQuerySchema } from "../../../shared/paging.js";
import { okSchema, sessionListSchema, signedOutOthersSchema } from "../../../shared/sessions.js";
import type { Db } from "../../db/client.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { Auth } from "../../auth/auth.js";
import { listSessions, signOutOthers, signOutSession } from "./service.js";

export function sessionRoutes(deps: { db: Db; auth: Auth }): RouteDef[] {
  const { db, auth } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me/sessions",
      summary: "List the devices signed in to your account (never their tokens)",
      tag: "me",
      query: pageQuerySchema,
      response: sessionListSchema,
      async handler({ actor, query }) {
        return listSessions(db, actor, query);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/me/sessions",
      summary: "Sign out everywhere else: every device of yours but this one (this session stays signed in)",
      tag: "me",
      response: signedOutOthersSchema,
      async handler({ actor }) {
        return { ok: true as const, signedOut: await signOutOthers(db, actor) };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/me/sessions/:id",
      summary: "Sign a device out (your own sessions only; the current one signs you out)",
      tag: "me",
      params: idParams.strict(),
      response: okSchema,
      async handler({ actor, params, res }) {
        const { wasCurrent } = await signOutSession(db, actor, params.id);
        if (wasCurrent) {
          const { name, attributes } = (await auth.$context).authCookies.sessionToken;
          res.clearCookie(name, { path: attributes.path, httpOnly: true, secure: attributes.secure, sameSite: "lax" });
        }
        return { ok: true as const };
      },
    }),
  ];
}
