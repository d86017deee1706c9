/**
 * History rows written by commands: one per applied op, with a per-field diff, the before/after
 * values the undo needs, a summary key with params, and the undo window.
 */
import { isDeepStrictEqual } from "node:util";
import type { historyEntries } from "../db/schema/index.js";
import { newId } from "./ids.js";
import type { CommandContext } from "./types.js";

/** `plain` is shown to everyone; `money` only where the reader's role may see money; `secret` never. */
export type FieldClass = "plain" | "money" | "secret";

export interface HistoryDraft {
  locationId: string;
  entityType: string;
  entityId: string;
  entityName: string | null;
  action: string;
  /** Values of the fields this event touched, before and after. */
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  classes?: Record<string, FieldClass>;
  /**
   * Fields whose values are never kept anywhere readable (secret fields), each with whether the
   * event changed it: diffed as class `secret`, hidden, with no before or after value (so undo
   * cannot restore one).
   */
  hidden?: Record<string, boolean>;
  summaryKey: string;
  summaryParams?: Record<string, string>;
  rowVersionAfter: number;
  undoable: boolean;
  undoOfEventId?: string;
  movedInFromElsewhere?: boolean;
  /** The AI call whose answer this event applied (server/modules/extractions/calls.ts, StoredCall). */
  aiCall?: unknown;
}

export type HistoryRow = typeof historyEntries.$inferInsert;

/** Values as JSON sees them: equal primitives at once, objects (custom fields) compared deeply. */
const same = (a: unknown, b: unknown) => a === b || (typeof a === "object" && typeof b === "object" && isDeepStrictEqual(a, b));

/** What a history row needs of its context. */
export type HistoryContext = Pick<CommandContext, "actor" | "now" | "undoWindowMs" | "clientId">;

/** End of the undo window of the batch's events (one Date for all of them). */
const undoEnds = new WeakMap<HistoryContext, Date>();
function undoableUntil(ctx: HistoryContext): Date {
  let end = undoEnds.get(ctx);
  if (!end) undoEnds.set(ctx, (end = new Date(ctx.now.getTime() + ctx.undoWindowMs)));
  return end;
}

export function historyRow(ctx: HistoryContext, d: HistoryDraft): HistoryRow & { id: string } {
  const diff: Record<string, { class: string; changed: boolean; hidden: boolean }> = {};
  // The keys of `before`, then those only in `after`.
  const note = (key: string) => {
    diff[key] = { class: d.classes?.[key] ?? "plain", changed: !same(d.before[key] ?? null, d.after[key] ?? null), hidden: false };
  };
  for (const key in d.before) note(key);
  for (const key in d.after) if (!(key in diff)) note(key);
  for (const key in d.hidden) diff[key] = { class: "secret", changed: d.hidden[key]!, hidden: true };
  return {
    id: newId(),
    locationId: d.locationId,
    entityType: d.entityType,
    entityId: d.entityId,
    entityName: d.entityName,
    action: d.action,
    actorType: ctx.actor.type,
    // The system actor (a job) is no one.
    actorUserId: ctx.actor.type === "system" ? null : ctx.actor.userId,
    actorTokenId: ctx.actor.tokenId ?? null,
    clientId: ctx.clientId ?? null,
    at: ctx.now,
    diff,
    before: d.before,
    after: d.after,
    summaryKey: d.summaryKey,
    summaryParams: d.summaryParams ?? {},
    rowVersionAfter: d.rowVersionAfter,
    undoableUntil: d.undoable ? undoableUntil(ctx) : null,
    undoneAt: null,
    undoneByEventId: null,
    undoOfEventId: d.undoOfEventId ?? null,
    movedInFromElsewhere: d.movedInFromElsewhere ?? null,
    aiCall: d.aiCall ?? null,
  };
}

/** The subset of `row` named by `keys`, for before/after snapshots. */
export function pick(row: object, keys: Iterable<string>): Record<string, unknown> {
  const values = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = values[k] instanceof Date ? values[k].toISOString() : (values[k] ?? null);
  return out;
}
