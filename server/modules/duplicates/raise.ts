/**
 * Duplicates (issue "inbox-ai"): a thing made or accepted with the same serial as another live
 * thing of its location, or the same brand and model in the same place, raises a `duplicate`
 * inbox item about the new thing, naming the other. A reviewer keeps both (accept or dismiss) or
 * merges the new one into the other (POST /inbox/{id}/merge). A pair is raised once: after any
 * decision on it, the same two things never raise it again.
 */
import { v7 as uuidv7 } from "uuid";
import type { CommandContext } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { insertInboxItems, newInboxItem } from "../../commands/inbox-items.js";
import type { DuplicateReason } from "../../../shared/inbox.js";

interface Pair {
  thing_id: string;
  location_id: string;
  other_id: string;
  reason: DuplicateReason;
}

/** Text PostgreSQL's btrim() would not empty (it trims spaces only). */
const hasText = (s: string | null | undefined) => s != null && /[^ ]/.test(s);

/**
 * Whether a thing can raise a duplicate at all: the probe's own first condition (a serial, or a
 * brand and a model), checked in the process so that a thing with neither costs no query (most
 * REST creates; the probe was one of a create's round trips).
 */
export const mayDuplicate = (t: { serial?: string | null | undefined; brandId?: string | null | undefined; model?: string | null | undefined }): boolean =>
  hasText(t.serial) || (t.brandId != null && hasText(t.model));

/**
 * Raises the duplicate items of `thingIds` (made or accepted by this batch). Things with neither a
 * serial nor a brand and model cost one index probe each and are left at once.
 */
export async function raiseDuplicates(ctx: CommandContext, thingIds: readonly string[]): Promise<void> {
  if (!thingIds.length) return;
  const found = await rows<Pair>(
    ctx.tx,
    // Two probes (migration 0021 indexes each), never an OR that would scan the whole location.
    sql`WITH t AS (
          SELECT id, location_id, serial, brand_id, model, place_id, container_id FROM things
          WHERE id = ANY(${uuidArray(thingIds)}) AND deleted_at IS NULL
            AND (nullif(btrim(serial), '') IS NOT NULL OR (brand_id IS NOT NULL AND nullif(btrim(model), '') IS NOT NULL))
        ), pairs AS (
          SELECT t.id AS thing_id, t.location_id, o.id AS other_id, 'serial' AS reason, 0 AS rank, o.created_at
          FROM t JOIN things o ON o.location_id = t.location_id AND lower(btrim(o.serial)) = lower(btrim(t.serial))
            AND o.deleted_at IS NULL AND o.serial IS NOT NULL AND o.id <> t.id
          WHERE nullif(btrim(t.serial), '') IS NOT NULL
          UNION ALL
          SELECT t.id, t.location_id, o.id, 'brand_model_place', 1, o.created_at
          FROM t JOIN things o ON o.location_id = t.location_id AND o.brand_id = t.brand_id AND lower(btrim(o.model)) = lower(btrim(t.model))
            AND o.deleted_at IS NULL AND o.id <> t.id
            AND o.place_id IS NOT DISTINCT FROM t.place_id AND o.container_id IS NOT DISTINCT FROM t.container_id
          WHERE t.brand_id IS NOT NULL AND nullif(btrim(t.model), '') IS NOT NULL
        )
        SELECT DISTINCT ON (p.thing_id) p.thing_id, p.location_id, p.other_id, p.reason
        FROM pairs p
        WHERE NOT EXISTS (
          SELECT 1 FROM inbox_items i
          WHERE i.kind = 'duplicate' AND i.deleted_at IS NULL
            AND ((i.thing_id = p.thing_id AND i.payload->'duplicate'->>'otherId' = p.other_id::text)
              OR (i.thing_id = p.other_id AND i.payload->'duplicate'->>'otherId' = p.thing_id::text)))
        ORDER BY p.thing_id, p.rank, p.created_at, p.other_id`,
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
  await insertInboxItems(
    ctx.tx,
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
