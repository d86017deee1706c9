/**
 * Making, listing and revoking share links, for signed-in members. Links are made online only: the
 * token is shown once, in the answer's URL, and only its hash is kept.
 */
import { v7 as uuidv7 } from "uuid";
import type { PageQuery } from "../../../shared/paging.js";
import { roleAtLeast } from "../../../shared/roles.js";
import {
  SHARE_CAP_DEFAULT,
  SHARE_DEFAULT_DAYS,
  SHARE_MAX_DAYS,
  type ShareLink,
  type ShareLinkCreate,
  type ShareLinkCreated,
  type ShareLinkList,
} from "../../../shared/share-links.js";
import { locationAccess } from "../../access/location.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { insertShareLink, liveLink, liveLinksPage, livePlaceIn, markRevoked, targetLocationOf, targetNameOf } from "./repository.js";
import { newShareToken, type ShareDeps } from "./token.js";
import { requireWriteRole } from "../../access/role.js";

export type { ShareDeps };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The page a link opens: the token rides in the fragment, which browsers never send to a server or in a Referer. */
export function shareUrl(publicUrl: URL, id: string, token: string): string {
  return `${publicUrl.origin}${publicUrl.pathname.replace(/\/$/, "")}/s/${id}#${token}`;
}

async function targetLocation(tx: Tx, body: ShareLinkCreate): Promise<string> {
  if (body.scope === "view") return body.locationId;
  const locationId = await targetLocationOf(tx, body.scope, body.targetId);
  if (!locationId) throw new NotFoundError(body.scope);
  if (body.locationId && body.locationId.toLowerCase() !== locationId) throw new ValidationError(`body.locationId: the ${body.scope} is not in this location`);
  return locationId;
}

/** What a link shows, in words for its audit entry: the thing's or place's name, or the view's title (may be empty). */
async function targetName(tx: Tx, scope: ShareLink["scope"], targetId: string | null, title: string | null): Promise<string> {
  if (scope === "view" || !targetId) return title ?? "";
  return targetNameOf(tx, scope, targetId);
}

/** The view's filter names rows of its own location only. */
async function checkFilter(tx: Tx, locationId: string, body: ShareLinkCreate): Promise<void> {
  const placeId = body.scope === "view" ? body.filter?.placeId : undefined;
  if (!placeId) return;
  if (!(await livePlaceIn(tx, locationId, placeId))) throw new NotFoundError("place");
}

export async function createShareLink(deps: ShareDeps, actor: Actor, body: ShareLinkCreate, now = new Date()): Promise<ShareLinkCreated> {
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : new Date(now.getTime() + SHARE_DEFAULT_DAYS * DAY_MS);
  if (expiresAt.getTime() <= now.getTime()) throw new ValidationError("body.expiresAt: must be in the future");
  if (expiresAt.getTime() > now.getTime() + SHARE_MAX_DAYS * DAY_MS) throw new ValidationError(`body.expiresAt: at most ${SHARE_MAX_DAYS} days ahead`);
  return withActor(deps.db, actor, async (tx) => {
    const locationId = await targetLocation(tx, body);
    const { role } = await locationAccess(tx, locationId);
    requireWriteRole(actor, role, "member", `Your role (${role}) cannot share from this location.`);
    await checkFilter(tx, locationId, body);
    const id = uuidv7();
    const token = newShareToken();
    await insertShareLink(tx, {
      id,
      locationId,
      scope: body.scope,
      targetId: body.scope === "view" ? null : body.targetId.toLowerCase(),
      filter: body.scope === "view" ? (body.filter ?? {}) : null,
      title: body.title ?? null,
      cap: body.cap ?? SHARE_CAP_DEFAULT,
      tokenHash: deps.hasher.hash(id, token),
      expiresAt,
      createdBy: actor.userId,
    });
    const target = await targetName(tx, body.scope, body.scope === "view" ? null : body.targetId.toLowerCase(), body.title ?? null);
    await recordAudit(tx, actor, { action: "share_link.created", locationId, params: { scope: body.scope, target } }, now);
    return { id, url: shareUrl(deps.publicUrl, id, token) };
  });
}

/** A location's live links, newest first, a page at a time (spec convention 6); revoked ones are left out. */
export async function listShareLinks(db: Db, actor: Actor, locationId: string, query: PageQuery): Promise<ShareLinkList> {
  return withActor(db, actor, async (tx) => {
    const { role } = await locationAccess(tx, locationId);
    const page = await liveLinksPage(tx, locationId, query);
    const admin = actor.canWrite && roleAtLeast(role, "admin");
    const mayWrite = actor.canWrite && roleAtLeast(role, "member");
    return {
      next_cursor: page.next_cursor,
      items: page.rows.map((r): ShareLink => ({
        id: r.id,
        locationId: r.locationId,
        scope: r.scope,
        targetId: r.targetId,
        filter: r.filter,
        title: r.title,
        cap: r.cap,
        expiresAt: r.expiresAt.toISOString(),
        createdAt: r.createdAt.toISOString(),
        createdBy: r.createdByName === null ? null : { displayName: r.createdByName },
        canRevoke: admin || (mayWrite && r.createdById === actor.userId),
      })),
    };
  });
}

/** The maker (while still a member) or an admin revokes; a revoked link answers like one never made. */
export async function revokeShareLink(db: Db, actor: Actor, id: string, now = new Date()): Promise<void> {
  await withActor(db, actor, async (tx) => {
    const link = await liveLink(tx, id);
    if (!link) throw new NotFoundError("share link");
    const { role } = await locationAccess(tx, link.locationId);
    const own = link.createdBy === actor.userId && roleAtLeast(role, "member");
    if (!actor.canWrite || !(own || roleAtLeast(role, "admin"))) throw new ForbiddenError("Only the link's maker or an admin can revoke it.");
    await markRevoked(tx, id, now);
    const target = await targetName(tx, link.scope, link.targetId, link.title);
    await recordAudit(tx, actor, { action: "share_link.revoked", locationId: link.locationId, params: { scope: link.scope, target } }, now);
  });
}
