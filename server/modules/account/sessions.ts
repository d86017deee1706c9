/**
 * The signed-in devices of a user: GET /api/v1/me/sessions and DELETE /api/v1/me/sessions/:id (the
 * library's own listing and revocation are switched off, spec "Sign-up" 4), and DELETE
 * /api/v1/me/sessions, "sign out everywhere else" (every session of the user but the caller's). Rows
 * are read from the session table directly; the token column is never selected.
 */
import { and, eq, gt, ne } from "drizzle-orm";
import { pageQuerySchema } from "../../../shared/paging.js";
import { okSchema, sessionListSchema, signedOutOthersSchema } from "../../../shared/sessions.js";
import type { Db } from "../../db/client.js";
import { authSessions } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import { timeIdPaging } from "../../db/paging.js";
import type { Actor } from "../../db/actor.js";
import type { Auth } from "../../auth/auth.js";
import { requireSession } from "../../access/role.js";

function sessionOwner(actor: Actor): Actor & { sessionId: string } {
  return requireSession(actor, "Sessions are managed from a signed-in session only.");
}

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
        const me = sessionOwner(actor);
        const paging = timeIdPaging(authSessions.createdAt, authSessions.id, query);
        const found = await db
          .select({
            id: authSessions.id,
            createdAt: authSessions.createdAt,
            lastSeenAt: authSessions.lastSeenAt,
            ip: authSessions.ipAddress,
            userAgent: authSessions.userAgent,
            key: paging.key,
          })
          .from(authSessions)
          .where(and(eq(authSessions.userId, me.userId), gt(authSessions.expiresAt, new Date()), paging.after))
          .orderBy(...paging.orderBy)
          .limit(paging.limit);
        const page = paging.page(found, (s) => s.id);
        return {
          next_cursor: page.next_cursor,
          items: page.rows.map((s) => ({
            id: s.id,
            current: s.id === me.sessionId,
            createdAt: s.createdAt.toISOString(),
            lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
            ip: s.ip || null,
            userAgent: s.userAgent || null,
          })),
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/me/sessions",
      summary: "Sign out everywhere else: every device of yours but this one (this session stays signed in)",
      tag: "me",
      response: signedOutOthersSchema,
      async handler({ actor }) {
        const me = sessionOwner(actor);
        const gone = await db
          .delete(authSessions)
          .where(and(eq(authSessions.userId, me.userId), ne(authSessions.id, me.sessionId)))
          .returning({ id: authSessions.id });
        return { ok: true as const, signedOut: gone.length };
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
        const me = sessionOwner(actor);
        const gone = await db
          .delete(authSessions)
          .where(and(eq(authSessions.id, params.id), eq(authSessions.userId, me.userId)))
          .returning({ id: authSessions.id });
        if (!gone.length) throw new NotFoundError("session");
        if (params.id === me.sessionId) {
          const { name, attributes } = (await auth.$context).authCookies.sessionToken;
          res.clearCookie(name, { path: attributes.path, httpOnly: true, secure: attributes.secure, sameSite: "lax" });
        }
        return { ok: true as const };
      },
    }),
  ];
}
