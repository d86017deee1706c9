/**
 * A change to an existing thing as every command that writes things records it (update, move,
 * delete, inbox review, undo): the row in its new state, and a history entry whose summary names
 * the thing. The segment's collector writes them with the rest.
 */
import type { FieldClass } from "../../commands/history.js";
import type { SegmentChanges } from "../../commands/segment.js";
import type { Targets } from "../../commands/targets.js";
import { things } from "../../db/schema/index.js";
import { readValues, type ThingRow, type ThingTarget } from "./values.js";

export interface ThingChange {
  action: string;
  /** The history keys the change wrote (columns by name, custom fields as `fields.<key>`). */
  keys: string[];
  /** Defaults to the action. */
  summaryKey?: string;
  summaryParams?: Record<string, string>;
  classes?: Record<string, FieldClass>;
  /** Columns changed besides those in `keys` (e.g. lastSeenAt on a move). */
  touches?: (keyof ThingRow)[];
  /** Undo events are not themselves undoable. */
  undoOfEventId?: string;
  /** A move found by a box check: the thing turned up in a box it was not recorded in (the history entry says so). */
  movedInFromElsewhere?: boolean;
  /** Secret fields written (`fields.<key>`): hidden in the diff; their old values are gone, so the change cannot be undone. */
  secretKeys?: Record<string, boolean>;
  /** The AI call whose answer the change applied (an accepted suggestion). */
  aiCall?: unknown;
}

/** Records `next` (already carrying its new rowVersion) in place of `before`; answers the event id. */
export function changeThing(changes: SegmentChanges, before: ThingTarget, next: ThingTarget, c: ThingChange): string {
  const columns = new Set<keyof ThingRow>(["rowVersion", "updatedAt"]);
  for (const key of c.keys) columns.add(key.startsWith("fields.") ? "fields" : (key as keyof ThingRow));
  if (c.touches) for (const key of c.touches) columns.add(key);
  changes.update(things, next, columns);
  return changes.record({
    locationId: next.locationId,
    entityType: "thing",
    entityId: next.id,
    entityName: next.name,
    action: c.action,
    before: readValues(before, c.keys),
    after: readValues(next, c.keys),
    ...(c.classes ? { classes: c.classes } : {}),
    ...(c.secretKeys ? { hidden: c.secretKeys } : {}),
    summaryKey: c.summaryKey ?? c.action,
    summaryParams: { name: next.name ?? "", ...c.summaryParams },
    rowVersionAfter: next.rowVersion,
    undoable: c.undoOfEventId === undefined && !Object.keys(c.secretKeys ?? {}).length,
    ...(c.undoOfEventId !== undefined ? { undoOfEventId: c.undoOfEventId } : {}),
    ...(c.movedInFromElsewhere ? { movedInFromElsewhere: true } : {}),
    ...(c.aiCall ? { aiCall: c.aiCall } : {}),
  });
}

/**
 * A person's edit of a thing the segment locked: `next` gets a new version and updatedAt `now` and
 * becomes what later ops of the segment see; recorded as changeThing does, the op is answered applied.
 */
export function editThing(changes: SegmentChanges, targets: Targets<ThingTarget>, before: ThingTarget, next: ThingTarget, now: Date, c: ThingChange): void {
  next.rowVersion = before.rowVersion + 1;
  next.updatedAt = now;
  targets.set(next);
  changes.applied(next.id, next.rowVersion, changeThing(changes, before, next, c));
}
