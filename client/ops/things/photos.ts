/**
 * A thing's photos on the device, by the server's rules (server/modules/things/photos.ts): who may
 * change them, and how a merged capture's photos join a thing. The three photo ops are
 * thing.photo.add.ts, thing.photo.remove.ts and thing.photo.cover.ts.
 */
import { THING_PHOTOS_MAX } from "../../../shared/thing-photos.js";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import type { ThingRow } from "../../db/rows.js";

export type Photos = Pick<ThingRow, "photoFileIds" | "coverFileId">;

/** Why the device will not queue a photo change: the person's role here cannot write. */
export class PhotoChangeRefused extends Error {}

/** Refused at once for a role that cannot write (the device knows its role from the memberships shape). */
export function mayChange(role: Role | undefined): void {
  if (!role || !roleAtLeast(role, "member")) throw new PhotoChangeRefused(`role ${role ?? "none"} cannot change photos`);
}

export type PhotoTarget = Pick<ThingRow, "id" | "locationId" | "rowVersion">;
export const photoBase = (thing: PhotoTarget) => (thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {});

/** A merged capture's photos join the thing's, as the server merges them (server/modules/inbox/commands.ts). */
export function withPhotosOf<T extends Photos>(t: T, draft: Photos): T {
  const photos = t.photoFileIds ?? [];
  const all = [...new Set([...photos, ...draft.photoFileIds])].slice(0, Math.max(THING_PHOTOS_MAX, photos.length));
  return { ...t, photoFileIds: all, coverFileId: t.coverFileId ?? draft.coverFileId ?? all[0] ?? null };
}
