/**
 * The SQL of share links, on an open transaction: the rows a link names or shows, and the links
 * themselves. No access checks here; service.ts makes them before it calls these.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { PageQuery } from "../../../shared/paging.js";
import type { ShareLink } from "../../../shared/share-links.js";
import type { Tx } from "../../db/client.js";
import { timeIdPaging } from "../../db/paging.js";
import { places, shareLinks, things, users } from "../../db/schema/index.js";

type Scope = ShareLink["scope"];
const tableOf = (scope: Exclude<Scope, "view">) => (scope === "thing" ? things : places);

/** The location of a live thing or place; null when it is gone or not visible. */
export async function targetLocationOf(tx: Tx, scope: Exclude<Scope, "view">, targetId: string): Promise<string | null> {
  const table = tableOf(scope);
  const [row] = await tx
    .select({ locationId: table.locationId })
    .from(table)
    .where(and(eq(table.id, targetId), isNull(table.deletedAt)));
  return row?.locationId ?? null;
}

/** The name of the thing or place a link shows (empty when it cannot be read). */
export async function targetNameOf(tx: Tx, scope: Exclude<Scope, "view">, targetId: string): Promise<string> {
  const table = tableOf(scope);
  const [row] = await tx.select({ name: table.name }).from(table).where(eq(table.id, targetId));
  return row?.name ?? "";
}

/** Whether a live place of the location has this id. */
export async function livePlaceIn(tx: Tx, locationId: string, placeId: string): Promise<boolean> {
  const [p] = await tx
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.id, placeId), eq(places.locationId, locationId), isNull(places.deletedAt)));
  return p !== undefined;
}

export async function insertShareLink(tx: Tx, link: typeof shareLinks.$inferInsert): Promise<void> {
  await tx.insert(shareLinks).values(link);
}

/** A page of a location's live links, newest first, with their makers' names. */
export async function liveLinksPage(tx: Tx, locationId: string, query: PageQuery) {
  const paging = timeIdPaging(shareLinks.createdAt, shareLinks.id, query);
  const found = await tx
    .select({
      id: shareLinks.id,
      locationId: shareLinks.locationId,
      scope: shareLinks.scope,
      targetId: shareLinks.targetId,
      filter: shareLinks.filter,
      title: shareLinks.title,
      cap: shareLinks.cap,
      expiresAt: shareLinks.expiresAt,
      createdAt: shareLinks.createdAt,
      createdById: shareLinks.createdBy,
      createdByName: users.name,
      key: paging.key,
    })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.createdBy))
    .where(and(eq(shareLinks.locationId, locationId), isNull(shareLinks.revokedAt), paging.after))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(found, (r) => r.id);
}

/** A link not yet revoked, as much of it as a revocation needs; null otherwise. */
export async function liveLink(tx: Tx, id: string) {
  const [link] = await tx
    .select({
      locationId: shareLinks.locationId,
      createdBy: shareLinks.createdBy,
      scope: shareLinks.scope,
      targetId: shareLinks.targetId,
      title: shareLinks.title,
    })
    .from(shareLinks)
    .where(and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt)));
  return link ?? null;
}

export async function markRevoked(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.update(shareLinks).set({ revokedAt: now }).where(eq(shareLinks.id, id));
}
