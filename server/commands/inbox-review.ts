/**
 * What a kind review is: what accepting or dismissing an inbox item of a kind does beyond resolving
 * it. The inbox's registry (server/modules/inbox/kinds.ts) lists them; the modules that own the
 * rows (meters, codes, receipts) implement it here, in the write core, without importing the inbox.
 */
import type { InboxAcceptArgs } from "../../shared/inbox-actions.js";
import type { SegmentChanges } from "./segment.js";
import type { CommandContext } from "./types.js";
import type { inboxItems } from "../db/schema/index.js";
import type { AppError } from "../errors/classes.js";

export const ITEM_KEYS = ["locationId", "kind", "status", "thingId", "payload", "rowVersion", "deletedAt"] as const;
export type Item = Pick<typeof inboxItems.$inferSelect, (typeof ITEM_KEYS)[number] | "id">;

export interface KindReview<S = unknown> {
  /** Reads (and locks) once per segment what its open items of this kind need (`args`: each item's op, by item id). */
  load(ctx: CommandContext, items: Item[], args: ReadonlyMap<string, InboxAcceptArgs>): Promise<S>;
  /**
   * Writes the effect into `changes` (never a verdict: the inbox answers the op) and answers null,
   * or the reason the item cannot be decided that way (the op is refused, nothing is written).
   * The answer may name the history entry the effect recorded, for the item's undo.
   */
  accept(ctx: CommandContext, changes: SegmentChanges, item: Item, state: S, args: InboxAcceptArgs): AppError | { eventId: string | null };
  dismiss(ctx: CommandContext, changes: SegmentChanges, item: Item, state: S): AppError | { eventId: string | null };
  /**
   * After the segment's writes: effects made through other commands, which write for themselves
   * (the things a receipt's lines become, through thing.create). What accept and dismiss decided
   * is in `state`; nothing here may refuse (accept checked it all).
   */
  after?(ctx: CommandContext, state: S): Promise<void>;
}
