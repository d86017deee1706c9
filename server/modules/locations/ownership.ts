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
 * The role check runs as the actor; the writes are system commands (lifecycle.ts) run with the
 * service's authority, because the rows they write (a deleted location, the owner's own
 * membership) are outside what RLS lets an actor write.
 */
import { eq } from "drizzle-orm";
import { locationAccess } from "../../access/location.js";
import { requirePerson, requireRole } from "../../access/role.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { locations } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { runSystem } from "../write.js";
import { purgeAfterOf } from "./trash.js";

async function requireOwner(db: Db, actor: Actor, id: string, confirm: string, what: string): Promise<{ name: string }> {
  requirePerson(actor, "Only the owner, signed in, can do this.");
  return withActor(db, actor, async (tx) => {
    const { role } = await locationAccess(tx, id);
    requireRole(role, "owner", `Only the owner can ${what} a location.`, { role, needed: "owner" });
    const [loc] = await tx.select({ name: locations.name, isPersonal: locations.isPersonal }).from(locations).where(eq(locations.id, id));
    if (!loc) throw new NotFoundError("location");
    if (loc.isPersonal)
      throw new ConflictError(`Your personal location belongs to your account and cannot be ${what === "delete" ? "deleted" : "transferred"}.`);
    if (confirm.trim() !== loc.name.trim()) throw new ValidationError("confirm: type the location's name exactly to confirm.");
    return { name: loc.name };
  });
}

export async function deleteLocation(db: Db, actor: Actor, id: string, confirm: string): Promise<{ ok: true; purgeAfter: string }> {
  const { name } = await requireOwner(db, actor, id, confirm, "delete");
  const deletedAt = await asSystem(db, async (tx) => {
    await runSystem(tx, actor, { name: "location.delete", locationId: id, args: { id } }, { undoWindowMs: 0 });
    const [loc] = await tx.select({ deletedAt: locations.deletedAt }).from(locations).where(eq(locations.id, id));
    const at = loc?.deletedAt ?? new Date();
    // The owner's own activity, not the location's: the purge removes every row of the location.
    await recordAudit(tx, actor, { action: "location.deleted", userId: actor.userId, params: { location: name } }, at);
    return at;
  });
  return { ok: true, purgeAfter: purgeAfterOf(deletedAt).toISOString() };
}

export async function transferLocation(db: Db, actor: Actor, id: string, body: { userId: string; confirm: string }): Promise<void> {
  await requireOwner(db, actor, id, body.confirm, "transfer");
  if (body.userId === actor.userId) throw new ValidationError("userId: you already own this location; choose another member.");
  await asSystem(db, async (tx) => {
    await runSystem(tx, actor, { name: "location.transfer", locationId: id, args: { id, userId: body.userId } }, { undoWindowMs: 0 });
    await recordAudit(tx, actor, { action: "location.transferred", userId: actor.userId, locationId: id, people: { to: body.userId } });
  });
}
