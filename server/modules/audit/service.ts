/**
 * Who may read which audit entries: a person their own account's (from a signed-in session: an
 * account's security record is no business of a token or a connected app), a location's owner and
 * admins that location's (members and viewers 403, a location the actor cannot see 404, as the
 * other location settings answer).
 */
import type { AuditList } from "../../../shared/audit.js";
import type { PageQuery } from "../../../shared/paging.js";
import { locationAccess } from "../../access/location.js";
import type { Actor } from "../../db/actor.js";
import { withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { auditPage } from "./read.js";
import { requirePerson, requireRole } from "../../access/role.js";

function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Activity is read from a signed-in session only.");
}

export async function myAudit(db: Db, actor: Actor, query: PageQuery): Promise<AuditList> {
  return withActor(db, personOnly(actor), (tx) => auditPage(tx, { userId: actor.userId }, actor.userId, query));
}

export async function locationAudit(db: Db, actor: Actor, locationId: string, query: PageQuery): Promise<AuditList> {
  return withActor(db, personOnly(actor), async (tx) => {
    const { role } = await locationAccess(tx, locationId);
    requireRole(role, "admin", `Your role (${role}) cannot see this location's activity; ask an owner or admin.`, { role, needed: "admin" });
    return auditPage(tx, { locationId }, actor.userId, query);
  });
}
