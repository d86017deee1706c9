/**
 * thing.capture: a quick draft made on a device (often with no signal): a draft thing plus a
 * `draft` inbox item so a reviewer can complete it. Reuses thing.create for the thing itself. A
 * person may have their own captures go straight in (straight-in.ts): then the item is accepted at once.
 */
import { newInboxItem } from "../../commands/inbox-items.js";
import { and, inArray, isNull, sql } from "drizzle-orm";
import { thingCaptureArgs, type ThingCaptureArgs } from "../../../shared/things.js";
import { bulkInsert } from "../../commands/bulk.js";
import { defineCommand, rejected, type Verdict } from "../../commands/types.js";
import { files, inboxItems } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { thingCreate } from "./create.js";
import { thingPaths } from "./paths.js";
import { queueExtractions } from "../../ai/extraction-queue.js";
import { acceptStraightIn } from "./straight-in.js";

/** A capture may start from a template and carry tags, as thing.create does (its rules apply). */
const templateAndTags = (a: ThingCaptureArgs) => ({ ...(a.templateId ? { templateId: a.templateId } : {}), ...(a.tagIds ? { tagIds: a.tagIds } : {}) });

export const thingCapture = defineCommand<ThingCaptureArgs>({
  name: "thing.capture",
  args: thingCaptureArgs,
  minRole: "member",
  refs: (a) => [a.placeId, a.containerId, a.typeId, ...(a.photoFileIds ?? []), a.templateId, ...(a.tagIds ?? [])],
  creates: true,
  async run(ctx, ops) {
    const photoIds = [...new Set(ops.flatMap((o) => o.args.photoFileIds ?? []))];
    const found = photoIds.length
      ? await ctx.tx
          .select({ id: files.id, locationId: files.locationId })
          .from(files)
          .where(and(inArray(files.id, photoIds), isNull(files.deletedAt)))
      : [];
    const fileLocation = new Map(found.map((f) => [f.id, f.locationId]));
    const verdicts: (Verdict | null)[] = ops.map((o) =>
      (o.args.photoFileIds ?? []).every((id) => fileLocation.get(id) === o.input.locationId) ? null : rejected(new NotFoundError("photo")),
    );
    const creatable = ops.filter((_, i) => verdicts[i] === null);
    const created = await thingCreate.run(
      ctx,
      creatable.map(({ input, args }) => ({
        input,
        args: {
          id: args.id,
          name: args.name ?? null,
          lifecycle: "draft" as const,
          ...(args.placeId ? { placeId: args.placeId } : {}),
          ...(args.containerId ? { containerId: args.containerId } : {}),
          ...(args.typeId ? { typeId: args.typeId } : {}),
          ...(args.quantity ? { quantity: args.quantity } : {}),
          ...templateAndTags(args),
        },
      })),
    );
    const appliedOps = creatable.filter((_, i) => created[i]!.status === "applied");
    // The photos become the thing's (server/modules/things/photos.ts), the first its cover (its thumbUrl).
    const covers = appliedOps.flatMap((o) =>
      o.args.photoFileIds?.[0] ? [{ id: o.args.id, f: o.args.photoFileIds[0], p: [...new Set(o.args.photoFileIds)] }] : [],
    );
    if (covers.length)
      await ctx.tx.execute(
        sql`UPDATE things t SET cover_file_id = o.f, photo_file_ids = ARRAY(SELECT jsonb_array_elements_text(o.p))::uuid[]
            FROM jsonb_to_recordset(${JSON.stringify(covers)}::jsonb) AS o(id uuid, f uuid, p jsonb) WHERE t.id = o.id`,
      );
    const paths = await thingPaths(
      ctx.tx,
      appliedOps.map((o) => o.args.id),
    );
    // Photos are read by the AI pipeline (server/modules/extractions/): queued with the capture, so
    // the run exists exactly when the capture does; with no provider it ends as `no_provider`.
    const withPhotos = appliedOps.filter((o) => o.args.photoFileIds?.length);
    const queued = await queueExtractions(
      ctx.tx,
      withPhotos.map(({ input, args }) => ({
        locationId: input.locationId,
        thingId: args.id,
        mode: "thing" as const,
        fileIds: args.photoFileIds!,
        requestedBy: ctx.actor.userId,
      })),
      ctx.now,
    );
    const extractionIds = new Map(withPhotos.map((o, i) => [o.args.id, queued[i]!]));
    await bulkInsert(
      ctx.tx,
      inboxItems,
      appliedOps.map(({ input, args }) =>
        newInboxItem(
          {
            id: args.id,
            locationId: input.locationId,
            kind: "draft",
            thingId: args.id,
            batchId: args.batchId ?? args.id,
            capturedAt: input.at ? new Date(input.at) : ctx.now,
            createdBy: ctx.actor.userId,
            payload: {
              photos: (args.photoFileIds ?? []).map((fileId) => ({ fileId })),
              placePath: paths.get(args.id) ?? [],
              ...(args.photoFileIds?.length ? { extraction: { id: extractionIds.get(args.id)!, status: "queued" } } : {}),
            },
          },
          ctx.now,
        ),
      ),
    );
    // Where the person's own captures go straight in, the draft is accepted now (straight-in.ts);
    // the accept moved the thing one version on, which the capture's verdict says.
    const accepted = await acceptStraightIn(ctx, appliedOps);
    let next = 0;
    return verdicts.map((v, i) => {
      const out = v ?? created[next++]!;
      return out.status === "applied" && accepted.has(ops[i]!.args.id) ? { ...out, rowVersion: out.rowVersion + 1 } : out;
    });
  },
});
