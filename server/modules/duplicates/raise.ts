/**
 * Duplicates (issue "inbox-ai"): a thing made or accepted with the same serial as another live
 * thing of its location, or the same brand and model in the same place, raises a `duplicate`
 * inbox item about the new thing, naming the other. A reviewer keeps both (accept or dismiss) or
 * merges the new one into the other (POST /inbox/{id}/merge). A pair is raised once: after any
 * decision on it, the same two things never raise it again.
 */
import { v7 as uuidv7 } from "uuid";
import type { CommandContext } from "../../commands/types.js";
import { bulkInsert } from "../../commands/bulk.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { inboxItems } from "../../db/schema/index.js";
import { newInboxItem } from "../inbox/new-item.js";
import type { DuplicateReason } from "../../../shared/inbox.js";

interface Pair {
  thing_id: string;
  location_id: string;
  other_id: string;
  reason: DuplicateReason;
}

/**
 * Raises the duplicate items of `thingIds` (made or accepted by this batch). Things with neither a
 * serial nor a brand and model cost one index probe each and are left at once.
 */
export async function raiseDuplicates(ctx: CommandContext, thingIds: readonly string[]): Promise<void> {
  if (!thingIds.length) return;
  const found = await rows<Pair>(
    ctx.tx,
    sql`SELECT DISTINCT ON (t.id) t.id AS thing_id, t.location_id, o.id AS other_id,
          CASE WHEN lower(btrim(t.serial)) = lower(btrim(o.serial)) THEN 'serial' ELSE 'brand_model_place' END AS reason
        FROM things t
        JOIN things o ON o.location_id = t.location_id AND o.id <> t.id AND o.deleted_at IS NULL
          AND (
            (nullif(btrim(t.serial), '') IS NOT NULL AND lower(btrim(o.serial)) = lower(btrim(t.serial)))
            OR (t.brand_id IS NOT NULL AND nullif(btrim(t.model), '') IS NOT NULL
                AND o.brand_id = t.brand_id AND lower(btrim(o.model)) = lower(btrim(t.model))
                AND o.place_id IS NOT DISTINCT FROM t.place_id AND o.container_id IS NOT DISTINCT FROM t.container_id)
          )
        WHERE t.id = ANY(${uuidArray(thingIds)}) AND t.deleted_at IS NULL
          AND NOT EXISTS (
            SELECT 1 FROM inbox_items i
            WHERE i.kind = 'duplicate' AND i.deleted_at IS NULL
              AND ((i.thing_id = t.id AND i.payload->'duplicate'->>'otherId' = o.id::text)
                OR (i.thing_id = o.id AND i.payload->'duplicate'->>'otherId' = t.id::text)))
        ORDER BY t.id, (lower(btrim(t.serial)) = lower(btrim(o.serial))) DESC NULLS LAST, o.created_at, o.id`,
  );
  // Two new things of one batch that match each other make one item, about the later one (ids are time-ordered v7).
  const seen = new Set<string>();
  const newestFirst = [...found].sort((a, b) => (a.thing_id < b.thing_id ? 1 : -1));
  const pairs = newestFirst.filter((p) => {
    const key = [p.thing_id, p.other_id].sort().join(":");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (!pairs.length) return;
  await bulkInsert(
    ctx.tx,
    inboxItems,
    pairs.map((p) =>
      newInboxItem(
        {
          id: uuidv7(),
          locationId: p.location_id,
          kind: "duplicate",
          thingId: p.thing_id,
          createdBy: ctx.actor.userId,
          payload: { duplicate: { otherId: p.other_id, reason: p.reason } },
        },
        ctx.now,
      ),
    ),
  );
}
