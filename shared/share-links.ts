/**
 * Share links (spec "Share-link preview", GET /api/v1/share-links/{id}/preview): a read-only view of
 * one thing, one place or a filtered view of a location, for anyone holding the link's token. The
 * preview carries exactly the spec's fields: no money, no secret, no member, no id.
 */
import { z } from "zod";
import { pageOf } from "./paging.js";
import { uuidSchema } from "./ids.js";
import { CONDITIONS } from "./things.js";

export const SHARE_SCOPES = ["thing", "place", "view"] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

/** Items on one preview page (our choice; the spec fixes only page <= 100). */
export const SHARE_PAGE_SIZE = 50;
export const SHARE_MAX_PAGE = 100;
/** The most items a link shows: every page of the largest one is reachable (100 x 50). */
export const SHARE_CAP_MAX = SHARE_PAGE_SIZE * SHARE_MAX_PAGE;
export const SHARE_CAP_DEFAULT = 500;
/** A link lives 30 days unless given an expiry, and at most a year. */
export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 365;
export const SHARE_TITLE_MAX = 200;
/** The header that carries a link's token (the query parameter `t` does too, for photos in <img>). */
export const SHARE_TOKEN_HEADER = "x-share-token";

export const shareLinkFilterSchema = z
  .object({
    placeId: uuidSchema.optional(),
    typeId: uuidSchema.optional(),
    tagId: uuidSchema.optional(),
    q: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type ShareLinkFilter = z.infer<typeof shareLinkFilterSchema>;

const common = {
  title: z.string().trim().min(1).max(SHARE_TITLE_MAX).nullable().optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  cap: z.number().int().min(1).max(SHARE_CAP_MAX).optional(),
};
/** A thing or a place: the target, and (if given) the location it must be in. */
const targeted = (scope: "thing" | "place") =>
  z.object({ scope: z.literal(scope), targetId: uuidSchema, locationId: uuidSchema.optional(), ...common }).strict();

/** One shape per scope, so a body can only be whole: a view names its location and filter, a thing or place its target. */
export const shareLinkCreateBody = z.discriminatedUnion("scope", [
  targeted("thing"),
  targeted("place"),
  z.object({ scope: z.literal("view"), locationId: uuidSchema, filter: shareLinkFilterSchema.optional(), ...common }).strict(),
]);
export type ShareLinkCreate = z.infer<typeof shareLinkCreateBody>;

export const shareLinkCreatedSchema = z.object({ id: uuidSchema, url: z.string() });
export type ShareLinkCreated = z.infer<typeof shareLinkCreatedSchema>;

/** A link as its location's members see it: never its token. */
export const shareLinkSchema = z.object({
  id: uuidSchema,
  locationId: uuidSchema,
  scope: z.enum(SHARE_SCOPES),
  targetId: uuidSchema.nullable(),
  filter: shareLinkFilterSchema.nullable(),
  title: z.string().nullable(),
  cap: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ displayName: z.string() }).nullable(),
  /** Whether the asker may revoke it (its maker, or an admin). */
  canRevoke: z.boolean(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkListSchema = pageOf(shareLinkSchema);
export type ShareLinkList = z.infer<typeof shareLinkListSchema>;

const pathEntry = z.object({ name: z.string().nullable(), kind: z.enum(["place", "container"]), isUnplaced: z.boolean() }).strict();
export const sharedPhotoSchema = z.object({ thumbUrl: z.string().nullable(), url: z.string() }).strict();

export const sharedThingSchema = z
  .object({
    name: z.string().nullable(),
    type: z.object({ icon: z.string().nullable(), name: z.string().nullable(), builtinKey: z.string().nullable() }).strict(),
    path: z.array(pathEntry),
    quantity: z.number(),
    /** Left out when the thing's condition was never set (the spec types it as one of five values, never null). */
    condition: z.enum(CONDITIONS).optional(),
    description: z.string().nullable(),
    /** Left out when the thing has no cover photo. */
    photo: sharedPhotoSchema.optional(),
  })
  .strict();
export type SharedThing = z.infer<typeof sharedThingSchema>;

export const sharedPlaceSchema = z.object({ name: z.string(), isUnplaced: z.boolean(), path: z.array(pathEntry) }).strict();

export const shareLinkPreviewSchema = z
  .object({
    scope: z.enum(SHARE_SCOPES),
    title: z.string().nullable(),
    thing: sharedThingSchema.optional(),
    place: sharedPlaceSchema.optional(),
    total: z.number().int(),
    cap: z.number().int(),
    page: z.number().int(),
    nextPage: z.number().int().nullable(),
    items: z.array(sharedThingSchema),
    expiresAt: z.iso.datetime({ offset: true }),
  })
  .strict();
export type ShareLinkPreview = z.infer<typeof shareLinkPreviewSchema>;

export const shareLinkPreviewQuery = z.object({
  page: z.coerce.number().int().min(1).max(SHARE_MAX_PAGE).default(1),
  /** The token, for a client that cannot send the header (an <img>). */
  t: z.string().max(200).optional(),
});
export const shareTokenQuery = z.object({ t: z.string().max(200).optional() });
