/**
 * A thing's photos: an ordered list of image files of its location, one of them its cover (the
 * photo lists and the inbox show small). Adding, removing and choosing the cover are ops of their
 * own (server/modules/things/photos.ts), so a device does them offline and two devices adding
 * photos to one thing both keep theirs (sync/SPEC.md VE7).
 */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Most photos one thing holds: a gallery, not an archive. */
export const THING_PHOTOS_MAX = 30;

/** thing.photo.add: `fileId` (uploaded first) joins the thing's photos; `cover` also makes it the cover. */
export const thingPhotoAddArgs = z.object({ id: uuidSchema, fileId: uuidSchema, cover: z.boolean().optional() }).strict();
export type ThingPhotoAddArgs = z.infer<typeof thingPhotoAddArgs>;

/** thing.photo.remove and thing.photo.cover name one of the thing's photos. */
export const thingPhotoArgs = z.object({ id: uuidSchema, fileId: uuidSchema }).strict();
export type ThingPhotoArgs = z.infer<typeof thingPhotoArgs>;

/** A photo as the thing detail lists it (the spec's `photos` of an inbox item, plus the full-size url). */
export const thingPhotoSchema = z
  .object({ fileId: uuidSchema, url: z.string(), thumbUrl: z.string().nullable(), isCover: z.boolean() })
  .meta({ id: "ThingPhoto" });
export type ThingPhoto = z.infer<typeof thingPhotoSchema>;

/** REST bodies: what the ops take, plus optionally the rowVersion the writer saw (checked strictly when sent: sync/SPEC.md VE6). */
export const thingPhotoAddBody = z.object({ fileId: uuidSchema, cover: z.boolean().optional(), rowVersion: z.number().int().min(1).optional() }).strict();
export const thingCoverBody = z.object({ fileId: uuidSchema, rowVersion: z.number().int().min(1).optional() }).strict();
