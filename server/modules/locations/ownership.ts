/**
 * The owner's two acts on a location (spec "Roles in a location": only the owner transfers or
 * deletes it). Both need the location's name typed again (`confirm`), checked here too, so no
 * single careless request does either.
 *
 * Transfer: the new owner must be a live member; the old owner becomes an admin. The location
 * stays in the account it was made in (its registries and AI budget live there).
 * Delete: the location goes to the trash (deleted_at); from that moment it is gone from every
 * member's lists and shapes (app_readable_locations skips deleted locations), its pending invites
 * and share links stop working, and its rows stay in the database for TRASH_DAYS (trash.ts lists and restores it, purge.ts
 * removes it after that).
 * The personal location made at sign-up is neither transferred nor deleted: each account has
 * exactly one, and sign-up's repair step expects it (spec "Sign-up" 5).
 *
 * The role check runs as the actor; the writes run with the service's authority, because the
 * rows they write (a deleted location, the owner's own membership) are outside what RLS lets an
 * actor write.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Role } from "../../../shared/roles.js";
import { locationAccess } from "../../access/location.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { historyEntries, invites, locations, memberships, shareLinks, users } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { purgeAfterOf } from "./trash.js";

async function requireOwner(db: Db, actor: Actor, id: string, confirm: string, what: string): Promise<{ name: string }> {
  if (actor.type !== "user") throw new ForbiddenError("Only the owner, signed in, can do this.");
  return withActor(db, actor, async (tx) => {
    const { role } = await locationAccess(tx, id);
    if (role !== "owner") throw new ForbiddenError(`Only the owner can ${what} a location.`, { role, needed: "owner" });
    const [loc] = await tx.select({ name: locations.name, isPersonal: locations.isPersonal }).from(locations).where(eq(locations.id, id));
    if (!loc) throw new NotFoundError("location");
    if (loc.isPersonal)
      throw new ConflictError(`Your personal location belongs to your account and cannot be ${what === "delete" ? "deleted" : "transferred"}.`);
    if (confirm.trim() !== loc.name.trim()) throw new ValidationError("confirm: type the location's name exactly to confirm.");
    return { name: loc.name };
  });
}

export async function deleteLocation(db: Db, actor: Actor, id: string, confirm: string): Promise<{ ok: true; purgeAfter: string }> {
  await requireOwner(db, actor, id, confirm, "delete");
  const now = new Date();
  await asSystem(db, async (tx) => {
    const [loc] = await tx
      .select()
      .from(locations)
      .where(and(eq(locations.id, id), isNull(locations.deletedAt)))
      .for("update");
    if (!loc) throw new NotFoundError("location");
    await tx
      .update(locations)
      .set({ deletedAt: now, updatedAt: now, rowVersion: loc.rowVersion + 1, scopeVersion: loc.scopeVersion + 1 })
      .where(eq(locations.id, id));
    await tx
      .update(invites)
      .set({ revokedAt: now })
      .where(and(eq(invites.locationId, id), isNull(invites.revokedAt), isNull(invites.acceptedAt)));
    await tx
      .update(shareLinks)
      .set({ revokedAt: now })
      .where(and(eq(shareLinks.locationId, id), isNull(shareLinks.revokedAt)));
    await recordAudit(tx, actor, { action: "location.deleted", userId: actor.userId, params: { location: loc.name } }, now);
  });
  return { ok: true, purgeAfter: purgeAfterOf(now).toISOString() };
}

type MemberRow = typeof memberships.$inferSelect;

async function changeRole(tx: Tx, actorId: string, m: MemberRow, role: Role, now: Date): Promise<void> {
  const rowVersion = m.rowVersion + 1;
  await tx.update(memberships).set({ role, rowVersion, updatedAt: now }).where(eq(memberships.id, m.id));
  const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, m.userId));
  await tx.insert(historyEntries).values({
    id: uuidv7(),
    locationId: m.locationId,
    entityType: "member",
    entityId: m.userId,
    entityName: user?.name ?? null,
    action: "member.updated",
    actorType: "user",
    actorUserId: actorId,
    at: now,
    diff: { role: { class: "plain", changed: true, hidden: false } },
    before: { role: m.role },
    after: { role },
    summaryKey: "member.role_changed",
    summaryParams: { name: user?.name ?? "", from: m.role, to: role },
    rowVersionAfter: rowVersion,
  });
}

export async function transferLocation(db: Db, actor: Actor, id: string, body: { userId: string; confirm: string }): Promise<void> {
  await requireOwner(db, actor, id, body.confirm, "transfer");
  if (body.userId === actor.userId) throw new ValidationError("userId: you already own this location; choose another member.");
  await asSystem(db, async (tx) => {
    const live = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.locationId, id), isNull(memberships.deletedAt), sql`${memberships.userId} IN (${actor.userId}, ${body.userId})`))
      .for("update");
    const from = live.find((m) => m.userId === actor.userId);
    const to = live.find((m) => m.userId === body.userId);
    // Checked again under the lock: the owner may have changed since the check above.
    if (!from || from.role !== "owner") throw new ForbiddenError("Only the owner can transfer a location.");
    if (!to) throw new NotFoundError("member");
    const now = new Date();
    await changeRole(tx, actor.userId, from, "admin", now);
    await changeRole(tx, actor.userId, to, "owner", now);
    await recordAudit(tx, actor, { action: "location.transferred", userId: actor.userId, locationId: id, people: { to: body.userId } }, now);
  });
}
