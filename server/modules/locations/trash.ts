/**
 * A deleted location's 30 days in its owner's trash (ownership.ts puts it there): the owner lists
 * what is in the trash and restores a location before its rows are purged (purge.ts).
 *
 * Deleted locations are invisible to every actor transaction (app_readable_locations skips them),
 * so these read with the service's authority and check ownership themselves: the caller must hold
 * the live owner membership of that location. Anyone else gets 404, as for a location they cannot
 * see. Restore does not bring back the invites and share links the delete revoked: links that
 * stopped working should not start again without someone making them anew.
 */
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { PageQuery } from "../../../shared/paging.js";
import { TRASH_DAYS, type TrashedLocation } from "../../../shared/locations.js";
import { requirePerson } from "../../access/role.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { locations, memberships } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError } from "../../errors/classes.js";
import { afterTimeId, exactTime, pageFrom } from "../../db/paging.js";
import { runSystem } from "../write.js";

const DAY_MS = 86_400_000;

export const purgeAfterOf = (deletedAt: Date): Date => new Date(deletedAt.getTime() + TRASH_DAYS * DAY_MS);

function person(actor: Actor): Actor {
  return requirePerson(actor, "The trash is handled from a signed-in session only.");
}

/** The caller's own deleted locations, most recently deleted first. */
export async function listTrash(db: Db, actor: Actor, query: PageQuery): Promise<{ items: TrashedLocation[]; next_cursor: string | null }> {
  const me = person(actor);
  const found = await asSystem(db, (tx) =>
    tx
      .select({ id: locations.id, name: locations.name, deletedAt: locations.deletedAt, key: exactTime(locations.deletedAt) })
      .from(locations)
      .innerJoin(memberships, and(eq(memberships.locationId, locations.id), isNull(memberships.deletedAt)))
      .where(
        and(
          isNotNull(locations.deletedAt),
          eq(memberships.userId, me.userId),
          eq(memberships.role, "owner"),
          query.cursor ? afterTimeId(query.cursor, locations.deletedAt, locations.id, "desc") : undefined,
        ),
      )
      .orderBy(desc(locations.deletedAt), desc(locations.id))
      .limit(query.limit + 1),
  );
  const page = pageFrom(found, query.limit, (r) => [r.key, r.id]);
  return {
    next_cursor: page.next_cursor,
    items: page.rows.map((r) => {
      const deletedAt = r.deletedAt ?? new Date(0);
      return { id: r.id, name: r.name, deletedAt: deletedAt.toISOString(), purgeAfter: purgeAfterOf(deletedAt).toISOString() };
    }),
  };
}

/**
 * Takes a location out of the trash: every member sees it again, as it was. The owner only, and
 * with the second factor proven where the location requires it (as reading it would).
 */
export async function restoreLocation(db: Db, actor: Actor, id: string): Promise<void> {
  const me = person(actor);
  await asSystem(db, async (tx) => {
    const [loc] = await tx
      .select()
      .from(locations)
      .where(and(eq(locations.id, id), isNotNull(locations.deletedAt)))
      .for("update");
    const [owner] = loc
      ? await tx
          .select({ id: memberships.id })
          .from(memberships)
          .where(and(eq(memberships.locationId, id), eq(memberships.userId, me.userId), eq(memberships.role, "owner"), isNull(memberships.deletedAt)))
      : [];
    if (!loc || !owner) throw new NotFoundError("location");
    if (loc.requiresTwoFactor && !me.mfaProven) {
      throw new ForbiddenError("This location requires two-factor sign-in: sign in with your second factor, then restore it.");
    }
    await runSystem(tx, me, { name: "location.restore", locationId: id, args: { id } }, { undoWindowMs: 0 });
    await recordAudit(tx, me, { action: "location.restored", userId: me.userId, params: { location: loc.name } });
  });
}
