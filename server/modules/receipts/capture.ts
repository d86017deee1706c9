/**
 * receipt.capture: a receipt photographed as such (often with no signal; pushed later). It makes
 * the purchase, its `receipt` inbox item (the same id) and queues the extraction that reads it;
 * with no provider the run ends as `no_provider` and the item still holds the pages.
 */
import { and, inArray, isNull } from "drizzle-orm";
import { receiptCaptureArgs, type ReceiptCaptureArgs } from "../../../shared/receipts.js";
import { bulkInsert } from "../../commands/bulk.js";
import { applied, defineCommand, rejected, type Verdict } from "../../commands/types.js";
import { files, inboxItems, places, purchases } from "../../db/schema/index.js";
import { ConflictError, NotFoundError } from "../../errors/classes.js";
import { queueExtractions } from "../../ai/extraction-queue.js";
import { newInboxItem } from "../../commands/inbox-items.js";
import { receiptPayload } from "./mirror.js";

export const receiptCapture = defineCommand<ReceiptCaptureArgs>({
  name: "receipt.capture",
  args: receiptCaptureArgs,
  minRole: "member",
  refs: (a) => [a.placeId, ...a.photoFileIds],
  creates: true,
  async run(ctx, ops) {
    const fileIds = [...new Set(ops.flatMap((o) => o.args.photoFileIds))];
    const placeIds = [...new Set(ops.flatMap((o) => (o.args.placeId ? [o.args.placeId] : [])))];
    const ids = ops.map((o) => o.args.id);
    const [found, foundPlaces, existing] = await Promise.all([
      ctx.tx
        .select({ id: files.id, locationId: files.locationId })
        .from(files)
        .where(and(inArray(files.id, fileIds), isNull(files.deletedAt))),
      placeIds.length
        ? ctx.tx
            .select({ id: places.id, locationId: places.locationId })
            .from(places)
            .where(and(inArray(places.id, placeIds), isNull(places.deletedAt)))
        : Promise.resolve([]),
      ctx.tx.select({ id: purchases.id }).from(purchases).where(inArray(purchases.id, ids)),
    ]);
    const fileLocation = new Map(found.map((f) => [f.id, f.locationId]));
    const placeLocation = new Map(foundPlaces.map((p) => [p.id, p.locationId]));
    const taken = new Set(existing.map((p) => p.id));
    const verdicts: Verdict[] = [];
    const made: (typeof purchases.$inferSelect)[] = [];
    for (const { input, args } of ops) {
      const loc = input.locationId;
      if (!args.photoFileIds.every((id) => fileLocation.get(id) === loc)) verdicts.push(rejected(new NotFoundError("photo")));
      else if (args.placeId && placeLocation.get(args.placeId) !== loc) verdicts.push(rejected(new NotFoundError("place")));
      else if (taken.has(args.id)) verdicts.push(rejected(new ConflictError("A receipt with this id exists already.")));
      else {
        taken.add(args.id);
        made.push({
          id: args.id,
          locationId: loc,
          placeId: args.placeId ?? null,
          fileIds: [...new Set(args.photoFileIds)],
          vendorSeen: null,
          purchasedOn: null,
          currency: null,
          currencySeen: null,
          total: null,
          tax: null,
          lines: [],
          status: "reading",
          createdBy: ctx.actor.userId,
          rowVersion: 1,
          createdAt: ctx.now,
          updatedAt: ctx.now,
          deletedAt: null,
        });
        verdicts.push(applied(ctx, args.id, 1, null));
      }
    }
    if (!made.length) return verdicts;
    await bulkInsert(ctx.tx, purchases, made);
    const queued = await queueExtractions(
      ctx.tx,
      made.map((p) => ({
        locationId: p.locationId,
        thingId: null,
        purchaseId: p.id,
        mode: "receipt" as const,
        fileIds: p.fileIds,
        requestedBy: ctx.actor.userId,
      })),
      ctx.now,
    );
    const argsOf = new Map(ops.map((o) => [o.args.id, o]));
    await bulkInsert(
      ctx.tx,
      inboxItems,
      made.map((p, i) => {
        const op = argsOf.get(p.id)!;
        return newInboxItem(
          {
            id: p.id,
            locationId: p.locationId,
            kind: "receipt",
            thingId: null,
            batchId: op.args.batchId ?? p.id,
            capturedAt: op.input.at ? new Date(op.input.at) : ctx.now,
            createdBy: ctx.actor.userId,
            payload: { receipt: receiptPayload(p), extraction: { id: queued[i]!, status: "queued" } },
          },
          ctx.now,
        );
      }),
    );
    return verdicts;
  },
});
