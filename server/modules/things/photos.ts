/**
 * A thing's photos (shared/thing-photos.ts): thing.photo.add, thing.photo.remove and
 * thing.photo.cover, each set-based over a segment like the other commands on things. The photos
 * are `photo_file_ids` (in the order added) and `cover_file_id`, always one of them or null.
 *
 * Adding and removing change a set, not a value: a pushed op with an older baseVersion applies
 * whatever changed since (sync/SPEC.md VE7), so two devices that each add a photo offline both
 * keep theirs. Choosing the cover is a value, merged field by field (VE3). REST is strict (VE6).
 */
import { and, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import { THUMBNAIL_MIMES } from "../../../shared/files.js";
import { THING_PHOTOS_MAX, thingPhotoAddArgs, thingPhotoArgs, type ThingPhotoAddArgs, type ThingPhotoArgs } from "../../../shared/thing-photos.js";
import { eachOp } from "../../commands/runs.js";
import { lockTargets, type Targets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { files, things } from "../../db/schema/index.js";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { changeThing } from "./changes.js";
import { TARGET_KEYS, type ThingTarget } from "./values.js";

type Photos = { photoFileIds: string[]; coverFileId: string | null };
type PhotoTarget = ThingTarget & Photos;

/** What one op makes of the thing's photos, or why it cannot. */
type Decide<A> = (args: A, now: Photos, file: { locationId: string; mime: string } | undefined, loc: string) => Photos | AppError;

interface PhotoCommand<A> {
  name: string;
  args: z.ZodType<A>;
  /** The history action (and summary key). */
  action: string;
  /** The fields a stale pushed op is merged on (VE3); none for a set change (VE7). */
  mergeOn: string[];
  decide: Decide<A>;
}

/** The live files the ops name, by id: their location and kind. */
async function filesOf(ctx: CommandContext, ids: string[]): Promise<Map<string, { locationId: string; mime: string }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const found = await ctx.tx
    .select({ id: files.id, locationId: files.locationId, mime: files.mime })
    .from(files)
    .where(and(inArray(files.id, unique), isNull(files.deletedAt)));
  return new Map(found.map((f) => [f.id, f]));
}

function photoCommand<A extends { id: string; fileId: string }>(c: PhotoCommand<A>) {
  return defineCommand<A>({
    name: c.name,
    args: c.args,
    minRole: "member",
    // Said, not defaulted: the default cannot see that every A has an id.
    target: (a) => a.id,
    refs: (a) => [a.fileId],
    async run(ctx, ops: Op<A>[]) {
      const targets = (await lockTargets(ctx, things, { entity: "thing", entityType: "thing" }, ops, [
        ...TARGET_KEYS,
        "photoFileIds",
        "coverFileId",
      ])) as Targets<PhotoTarget>;
      const found = await filesOf(
        ctx,
        ops.map((o) => o.args.fileId),
      );
      return eachOp(ctx, ops, (changes, op) => {
        const target = targets.get(op.args.id);
        const problem = targets.problem(op, target, { fields: c.mergeOn });
        const after = problem ?? (target ? c.decide(op.args, target, found.get(op.args.fileId), op.input.locationId) : new NotFoundError("thing"));
        if (after instanceof AppError || !target) return changes.refuse(after instanceof AppError ? after : new NotFoundError("thing"));
        const keys = (["photoFileIds", "coverFileId"] as const).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(target[k]));
        // Nothing to change (the photo is already there, or already the cover): applied as it stands.
        if (!keys.length) return changes.applied(target.id, target.rowVersion, null);
        const next: PhotoTarget = { ...target, ...after, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
        targets.set(next);
        changes.applied(next.id, next.rowVersion, changeThing(changes, target, next, { action: c.action, keys: [...keys] }));
      });
    },
  });
}

export const thingPhotoAdd = photoCommand<ThingPhotoAddArgs>({
  name: "thing.photo.add",
  args: thingPhotoAddArgs,
  action: "thing.photo_added",
  mergeOn: [],
  decide({ fileId, cover }, now, file, loc) {
    // A file of another location reads as missing: it does not say that the file exists.
    if (!file || file.locationId !== loc) return new NotFoundError("photo");
    if (!THUMBNAIL_MIMES.includes(file.mime as (typeof THUMBNAIL_MIMES)[number])) return new ValidationError("fileId: that file is not a photo.");
    const has = now.photoFileIds.includes(fileId);
    if (!has && now.photoFileIds.length >= THING_PHOTOS_MAX)
      return new ConflictError(`A thing holds at most ${THING_PHOTOS_MAX} photos; remove one before adding another.`);
    return {
      photoFileIds: has ? now.photoFileIds : [...now.photoFileIds, fileId],
      coverFileId: cover || !now.coverFileId ? fileId : now.coverFileId,
    };
  },
});

export const thingPhotoRemove = photoCommand<ThingPhotoArgs>({
  name: "thing.photo.remove",
  args: thingPhotoArgs,
  action: "thing.photo_removed",
  mergeOn: [],
  decide({ fileId }, now) {
    if (!now.photoFileIds.includes(fileId)) return new NotFoundError("photo");
    const rest = now.photoFileIds.filter((f) => f !== fileId);
    // The file record stays: history can bring the photo back, and a field or a reading may name it.
    return { photoFileIds: rest, coverFileId: now.coverFileId === fileId ? (rest[0] ?? null) : now.coverFileId };
  },
});

export const thingPhotoCover = photoCommand<ThingPhotoArgs>({
  name: "thing.photo.cover",
  args: thingPhotoArgs,
  action: "thing.cover_chosen",
  mergeOn: ["coverFileId"],
  decide({ fileId }, now) {
    if (!now.photoFileIds.includes(fileId)) return new NotFoundError("photo");
    return { photoFileIds: now.photoFileIds, coverFileId: fileId };
  },
});
