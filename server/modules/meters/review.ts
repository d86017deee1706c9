/**
 * What the inbox's accept and dismiss do to the reading of a `reading` item: accepting says the
 * reading is right after all (status `ok`, it counts again), dismissing says it is wrong
 * (`rejected`, kept but counting for nothing). A nudge item (no readingId) has no reading to
 * decide and is only resolved.
 */
import type { InboxReading, ReadingStatus } from "../../../shared/meters.js";
import { lockRows } from "../../commands/bulk.js";
import type { SegmentChanges } from "../../commands/segment.js";
import type { CommandContext } from "../../commands/types.js";
import { readings } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import type { Item, KindReview } from "../../commands/inbox-review.js";

type Locked = Pick<typeof readings.$inferSelect, "id" | "locationId" | "status" | "rowVersion" | "deletedAt">;

const readingIdOf = (item: Item) => (item.payload as { reading?: InboxReading }).reading?.readingId?.toLowerCase();

function decide(ctx: CommandContext, changes: SegmentChanges, item: Item, state: Map<string, Locked>, status: ReadingStatus) {
  const id = readingIdOf(item);
  if (!id) return { eventId: null };
  const reading = state.get(id);
  if (!reading || reading.deletedAt || reading.locationId !== item.locationId) return new NotFoundError("reading");
  const next = { ...reading, status, rowVersion: reading.rowVersion + 1, updatedAt: ctx.now };
  state.set(id, next);
  changes.update(readings, next, ["status", "rowVersion", "updatedAt"]);
  return { eventId: null };
}

const review: KindReview<Map<string, Locked>> = {
  async load(ctx, items) {
    const ids = [...new Set(items.map(readingIdOf).filter((id): id is string => !!id))];
    const found = await lockRows(ctx.tx, readings, ids, ["locationId", "status", "rowVersion", "deletedAt"]);
    return new Map(found.map((r) => [r.id, r]));
  },
  accept: (ctx, changes, item, state) => decide(ctx, changes, item, state, "ok"),
  dismiss: (ctx, changes, item, state) => decide(ctx, changes, item, state, "rejected"),
};

/** As KIND_REVIEWS holds it: the inbox hands each kind back the state its own load made. */
export const readingReview = review as KindReview<never>;
