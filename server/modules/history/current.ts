/**
 * Whether an event's change still stands: undo refuses an event whose fields no longer hold the
 * values it wrote (history.undo, "changed again after that event"), so the history read offers no
 * undo window for it either. Read-only (no lock): the undo command checks again under its lock.
 */
import { isDeepStrictEqual } from "node:util";
import { inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { historyEntries, things } from "../../db/schema/index.js";
import { readValues } from "../things/values.js";

type Event = Pick<typeof historyEntries.$inferSelect, "id" | "entityType" | "entityId" | "after" | "undoableUntil" | "undoneAt">;

/** The ids of the thing events among `events`, with an open window, whose values still hold. */
export async function eventsStillCurrent(tx: Tx, events: readonly Event[], now: Date): Promise<Set<string>> {
  const open = events.filter((e) => e.entityType === "thing" && e.undoableUntil && !e.undoneAt && e.undoableUntil.getTime() > now.getTime());
  if (!open.length) return new Set();
  const rows = await tx
    .select()
    .from(things)
    .where(
      inArray(
        things.id,
        open.map((e) => e.entityId),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return new Set(
    open
      .filter((e) => {
        const row = byId.get(e.entityId);
        return !!row && isDeepStrictEqual(readValues(row, Object.keys(e.after)), e.after);
      })
      .map((e) => e.id),
  );
}
