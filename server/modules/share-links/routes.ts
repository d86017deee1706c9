/**
 * Share links: members make, list and revoke them; anyone holding a link's token reads its preview
 * and the photos in it, signed in or not (route mode `none`). The token arrives in the
 * `X-Share-Token` header or the query parameter `t` (for an <img>); a session or a personal token
 * adds nothing here, and a personal token is refused by its allow-list before it gets here.
 */
import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import { z } from "zod";
import { THUMBNAIL_MIMES } from "../../../shared/files.js";
import { uuidSchema } from "../../../shared/ids.js";
import { pageQuerySchema } from "../../../shared/paging.js";
import {
  SHARE_TOKEN_HEADER,
  shareLinkCreateBody,
  shareLinkCreatedSchema,
  shareLinkListSchema,
  shareLinkPreviewQuery,
  shareLinkPreviewSchema,
  shareTokenQuery,
} from "../../../shared/share-links.js";
import type { ShareLimits } from "./limits.js";
import { NotFoundError } from "../../errors/classes.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { blobStoreOf } from "../files/blob-store.js";
import type { StoredBlob } from "../files/storage.js";
import { thumbnailOf } from "../files/thumbs.js";
import { sharedFile, sharePreview } from "./preview.js";
import { createShareLink, listShareLinks, revokeShareLink } from "./service.js";
import { ShareTokenHasher, type ShareDeps } from "./token.js";

const byFile = z.object({ id: uuidSchema, fileId: uuidSchema });

function tokenOf(req: Request, query: { t?: string | undefined }): string | undefined {
  const header = req.headers[SHARE_TOKEN_HEADER];
  return (typeof header === "string" ? header : undefined) ?? query.t;
}

async function send(res: Response, stored: StoredBlob, open: () => Promise<NodeJS.ReadableStream>): Promise<undefined> {
  res.setHeader("content-type", stored.mime ?? "application/octet-stream");
  res.setHeader("content-length", String(stored.size));
  // Short-lived and private: after a revocation a browser may keep a photo for minutes, not a year.
  res.setHeader("cache-control", "private, max-age=300");
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("content-security-policy", "default-src 'none'; sandbox");
  await pipeline(await open(), res);
  return undefined;
}

export function shareLinkRoutes(deps: RouteDeps & { shareLimits: ShareLimits }): RouteDef[] {
  const share: ShareDeps = { db: deps.db, hasher: new ShareTokenHasher(deps.config.secret), publicUrl: deps.config.publicUrl };
  const store = blobStoreOf(deps.config);
  const { previews, photos } = deps.shareLimits;

  const photo = (thumb: boolean) =>
    defineRoute({
      method: "get",
      path: `/api/v1/share-links/:id/files/:fileId${thumb ? "/thumb" : ""}`,
      summary: thumb
        ? "The thumbnail of a photo a share link shows (no sign-in: the link's token in `X-Share-Token` or `t`)"
        : "A photo a share link shows (no sign-in: the link's token in `X-Share-Token` or `t`)",
      tag: "share-links",
      auth: "none",
      params: byFile,
      query: shareTokenQuery,
      response: z.unknown(),
      produces: thumb ? "image/webp" : "image/*",
      async handler({ req, res, params, query }) {
        await photos(req);
        const f = await sharedFile(share, params.id, tokenOf(req, query), params.fileId);
        if (!thumb) {
          const stored = await store.describe(f.sha256);
          if (!stored) throw new NotFoundError("file");
          return send(res, stored, () => store.open(f.sha256));
        }
        if (!(THUMBNAIL_MIMES as readonly string[]).includes(f.mime)) throw new NotFoundError("thumbnail");
        const made = await thumbnailOf(store, f.sha256);
        if (!made) throw new NotFoundError("thumbnail");
        return send(res, made.stored, () => store.open(made.name));
      },
    });

  return [
    defineRoute({
      method: "post",
      path: "/api/v1/share-links",
      summary:
        "Make a share link (members and above of the target's location): a thing, a place, or a view (a filter over `locationId`). Answers the URL with its token, shown once",
      tag: "share-links",
      status: 201,
      body: shareLinkCreateBody,
      response: shareLinkCreatedSchema,
      handler: ({ actor, body }) => createShareLink(share, actor, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/share-links",
      summary: "The location's live share links, newest first, paged (never their tokens)",
      tag: "share-links",
      params: idParams,
      query: pageQuerySchema,
      response: shareLinkListSchema,
      handler: ({ actor, params, query }) => listShareLinks(deps.db, actor, params.id, query),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/share-links/:id",
      summary: "Revoke a share link (its maker or an admin); it then answers like a link never made",
      tag: "share-links",
      status: 204,
      params: idParams,
      response: z.undefined(),
      async handler({ res, actor, params }) {
        await revokeShareLink(deps.db, actor, params.id);
        res.status(204).end();
        return undefined;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/share-links/:id/preview",
      summary:
        "A share link's preview, with no sign-in: the link's token (header `X-Share-Token`, or query `t`) is its only authority. Unknown, revoked, expired and wrong-token links all answer 404",
      tag: "share-links",
      auth: "none",
      params: idParams,
      query: shareLinkPreviewQuery,
      response: shareLinkPreviewSchema,
      async handler({ req, res, params, query }) {
        await previews(req);
        res.setHeader("cache-control", "no-store");
        res.setHeader("referrer-policy", "no-referrer");
        return sharePreview(share, params.id, tokenOf(req, query), query.page);
      },
    }),
    photo(false),
    photo(true),
  ] as RouteDef[];
}
