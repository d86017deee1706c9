/**
 * The anonymous side of a share link: the token is the only authority. The link's row is read with
 * the service's own authority (no one is signed in, and app_role cannot read the token's hash);
 * every read below is bounded by the link's location and scope. An unknown link, a wrong token, a
 * revoked or expired link, and a target since trashed all answer the same 404.
 */
import { eq } from "drizzle-orm";
import { THUMBNAIL_MIMES } from "../../../shared/files.js";
import { SHARE_PAGE_SIZE, type ShareLinkPreview, type SharedThing } from "../../../shared/share-links.js";
import { asSystem } from "../../db/actor.js";
import { namedRows, rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { shareLinks } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { thingPaths } from "../things/paths.js";
import { scopedThings, type LinkScope } from "./scope.js";
import type { ShareDeps } from "./token.js";
import { walkUp } from "../../db/tree.js";

export interface OpenLink extends LinkScope {
  title: string | null;
  expiresAt: Date;
}

/** One answer for every link that cannot be opened, so none of the reasons leaks. */
const unknownLink = () => new NotFoundError("share link");

/** The link, if the token opens it now. */
export async function openLink(tx: Tx, deps: Pick<ShareDeps, "hasher">, id: string, token: string | undefined, now = new Date()): Promise<OpenLink> {
  const [row] = await tx.select().from(shareLinks).where(eq(shareLinks.id, id));
  const ok = deps.hasher.matches(id, token, row?.tokenHash ?? null);
  if (!row || !ok || row.revokedAt || row.expiresAt.getTime() <= now.getTime()) throw unknownLink();
  return {
    id: row.id,
    locationId: row.locationId,
    scope: row.scope,
    targetId: row.targetId,
    filter: row.filter,
    cap: row.cap,
    title: row.title,
    expiresAt: row.expiresAt,
  };
}

const sharedPath = (entries: { name: string; kind: "place" | "container"; isUnplaced: boolean }[]) =>
  entries.map((e) => ({ name: e.name === "" ? null : e.name, kind: e.kind, isUnplaced: e.isUnplaced }));

/** The photo of a shared thing, fetchable only through the link (./routes.ts). */
function photoOf(linkId: string, token: string, fileId: string, mime: string | null): NonNullable<SharedThing["photo"]> {
  const base = `/api/v1/share-links/${linkId}/files/${fileId}`;
  const t = `?t=${encodeURIComponent(token)}`;
  return { url: base + t, thumbUrl: (THUMBNAIL_MIMES as readonly string[]).includes(mime ?? "") ? `${base}/thumb${t}` : null };
}

/** The spec's thing shape for these things, in the order given; nothing else of them is read. */
async function sharedThings(tx: Tx, link: OpenLink, token: string, ids: string[]): Promise<SharedThing[]> {
  if (!ids.length) return [];
  const found = await namedRows<{
    id: string;
    name: string | null;
    description: string | null;
    quantity: string;
    condition: NonNullable<SharedThing["condition"]> | null;
    icon: string | null;
    type_name: string | null;
    builtin_key: string | null;
    file_id: string | null;
    mime: string | null;
  }>(
    tx,
    "shared_things",
    sql`SELECT t.id, t.name, t.description, t.quantity::text AS quantity, t.condition, ty.icon, ty.name AS type_name, ty.builtin_key,
          f.id AS file_id, f.mime
        FROM things t
        JOIN types ty ON ty.id = t.type_id
        LEFT JOIN files f ON f.id = t.cover_file_id AND f.deleted_at IS NULL AND f.location_id = t.location_id
        WHERE t.id = ANY(${uuidArray(ids)}) AND t.location_id = ${link.locationId}::uuid`,
  );
  const paths = await thingPaths(tx, ids);
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        name: r.name,
        type: { icon: r.icon, name: r.type_name, builtinKey: r.builtin_key },
        path: sharedPath(paths.get(id) ?? []),
        quantity: Number(r.quantity),
        // The spec types these as a value or an object, never null: a field with no value is left out.
        ...(r.condition !== null ? { condition: r.condition } : {}),
        description: r.description,
        ...(r.file_id !== null ? { photo: photoOf(link.id, token, r.file_id, r.mime) } : {}),
      },
    ];
  });
}

async function sharedPlace(tx: Tx, link: OpenLink): Promise<NonNullable<ShareLinkPreview["place"]>> {
  const found = await rows<{ id: string; name: string; is_unplaced: boolean; depth: number }>(
    tx,
    sql`${walkUp("places", sql`n.id = ${link.targetId}::uuid AND n.location_id = ${link.locationId}::uuid AND n.deleted_at IS NULL`)}
        SELECT p.id, p.name, p.is_unplaced, up.depth FROM up JOIN places p ON p.id = up.id ORDER BY up.depth DESC`,
  );
  const self = found.find((r) => r.depth === 0);
  if (!self) throw unknownLink();
  const path = found.filter((r) => r.depth > 0).map((r) => ({ name: r.name, kind: "place" as const, isUnplaced: r.is_unplaced }));
  return { name: self.name, isUnplaced: self.is_unplaced, path };
}

export async function sharePreview(deps: ShareDeps, id: string, token: string | undefined, page: number, now = new Date()): Promise<ShareLinkPreview> {
  return asSystem(deps.db, async (tx) => {
    const link = await openLink(tx, deps, id, token, now);
    const out: Partial<ShareLinkPreview> = { scope: link.scope, title: link.title };
    if (link.scope === "thing") {
      const [root] = await rows<{ id: string }>(
        tx,
        sql`SELECT id FROM things WHERE id = ${link.targetId}::uuid AND location_id = ${link.locationId}::uuid AND deleted_at IS NULL`,
      );
      if (!root) throw unknownLink();
      out.thing = (await sharedThings(tx, link, token!, [root.id]))[0]!;
    } else if (link.scope === "place") {
      out.place = await sharedPlace(tx, link);
    }
    const [counted] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM (${scopedThings(link)}) s`);
    const total = counted?.n ?? 0;
    const offset = (page - 1) * SHARE_PAGE_SIZE;
    const size = Math.max(0, Math.min(SHARE_PAGE_SIZE, total - offset));
    const pageIds = size
      ? (await rows<{ id: string }>(tx, sql`SELECT id FROM (${scopedThings(link)}) s ORDER BY sort_name, id OFFSET ${offset} LIMIT ${size}`)).map((r) => r.id)
      : [];
    return {
      ...(out as Pick<ShareLinkPreview, "scope" | "title" | "thing" | "place">),
      total,
      cap: link.cap,
      page,
      nextPage: offset + SHARE_PAGE_SIZE < total ? page + 1 : null,
      items: await sharedThings(tx, link, token!, pageIds),
      expiresAt: link.expiresAt.toISOString(),
    };
  });
}

/** The file's content address, if it is the photo of a thing the link shows. */
export async function sharedFile(
  deps: ShareDeps,
  id: string,
  token: string | undefined,
  fileId: string,
  now = new Date(),
): Promise<{ sha256: string; mime: string }> {
  return asSystem(deps.db, async (tx) => {
    const link = await openLink(tx, deps, id, token, now);
    const rootThing = link.scope === "thing" ? link.targetId : null;
    const [f] = await rows<{ sha256: string; mime: string }>(
      tx,
      sql`SELECT f.sha256, f.mime FROM files f
          WHERE f.id = ${fileId}::uuid AND f.location_id = ${link.locationId}::uuid AND f.deleted_at IS NULL
            AND EXISTS (SELECT 1 FROM things t WHERE t.cover_file_id = f.id AND t.deleted_at IS NULL AND t.location_id = f.location_id
              AND (t.id = ${rootThing}::uuid OR t.id IN (SELECT id FROM (${scopedThings(link)}) s)))`,
    );
    if (!f) throw new NotFoundError("file");
    return f;
  });
}
