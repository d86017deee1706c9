/**
 * The rows that belong to things, carried along when the things change location (a box unpacked
 * into another location, server/modules/moves/transfer.ts): the one place that knows which rows
 * those are, so that a thing never arrives without its photos, files, history, meters and their
 * readings, codes, box checks, secret values, inbox items, extractions and their AI calls, or
 * loans. Synced rows get a new version (the change log turns their location change into a delete
 * for the old location's devices, migration 0024); history, extractions and AI calls are not
 * versioned. Runs inside the command that moves the things, after it wrote them.
 */
import { rows, sql, uuidArray } from "../db/client.js";
import type { CommandContext } from "./types.js";

/**
 * Every row that belongs to the moving things goes with them. Files are those the things name: a
 * cover and photos, a file field's value, a reading's proof, an extraction's or a captured draft's photos.
 */
export async function carryAlong(ctx: Pick<CommandContext, "tx" | "now">, ids: string[], from: string, to: string): Promise<void> {
  const { tx, now } = ctx;
  const set = uuidArray(ids);
  const bump = sql`location_id = ${to}, row_version = row_version + 1, updated_at = ${now}`;
  const files = await rows<{ id: string }>(
    tx,
    sql`SELECT f.id FROM files f WHERE f.location_id = ${from} AND f.id::text IN (
          SELECT cover_file_id::text FROM things WHERE id = ANY(${set}) AND cover_file_id IS NOT NULL
          UNION SELECT unnest(photo_file_ids)::text FROM things WHERE id = ANY(${set})
          UNION SELECT x #>> '{}' FROM things t, jsonb_path_query(t.fields, 'lax $.**') x WHERE t.id = ANY(${set}) AND jsonb_typeof(x) = 'string'
          UNION SELECT r.file_id::text FROM readings r JOIN meters m ON m.id = r.meter_id WHERE m.thing_id = ANY(${set}) AND r.file_id IS NOT NULL
          UNION SELECT unnest(e.file_ids)::text FROM extractions e WHERE e.thing_id = ANY(${set})
          UNION SELECT p->>'fileId' FROM inbox_items i, jsonb_array_elements(CASE WHEN jsonb_typeof(i.payload->'photos') = 'array' THEN i.payload->'photos' ELSE '[]'::jsonb END) p
                WHERE i.thing_id = ANY(${set}))`,
  );
  const meters = await rows<{ id: string }>(tx, sql`UPDATE meters SET ${bump} WHERE location_id = ${from} AND thing_id = ANY(${set}) RETURNING id`);
  const calls = await rows<{ call_id: string | null }>(
    tx,
    sql`UPDATE extractions SET location_id = ${to}, updated_at = ${now} WHERE location_id = ${from} AND thing_id = ANY(${set}) RETURNING call_id`,
  );
  const callIds = calls.map((c) => c.call_id).filter((x): x is string => !!x);
  await Promise.all([
    tx.execute(sql`UPDATE files SET ${bump} WHERE location_id = ${from} AND id = ANY(${uuidArray(files.map((f) => f.id))})`),
    tx.execute(sql`UPDATE readings SET ${bump} WHERE location_id = ${from} AND meter_id = ANY(${uuidArray(meters.map((m) => m.id))})`),
    // The things' history, and their meters' (a meter's entries are about the meter).
    tx.execute(
      sql`UPDATE history_entries SET location_id = ${to} WHERE location_id = ${from} AND entity_id = ANY(${uuidArray([...ids, ...meters.map((m) => m.id)])})`,
    ),
    tx.execute(sql`UPDATE codes SET ${bump} WHERE location_id = ${from} AND thing_id = ANY(${set})`),
    tx.execute(sql`UPDATE box_checks SET ${bump} WHERE location_id = ${from} AND container_id = ANY(${set})`),
    tx.execute(
      sql`UPDATE secret_values SET location_id = ${to}, row_version = row_version + 1, updated_at = ${now} WHERE location_id = ${from} AND thing_id = ANY(${set})`,
    ),
    tx.execute(sql`UPDATE inbox_items SET ${bump} WHERE location_id = ${from} AND thing_id = ANY(${set})`),
    tx.execute(sql`UPDATE ai_calls SET location_id = ${to} WHERE location_id = ${from} AND (thing_id = ANY(${set}) OR id = ANY(${uuidArray(callIds)}))`),
    tx.execute(sql`UPDATE loans SET ${bump} WHERE location_id = ${from} AND thing_id = ANY(${set})`),
  ]);
}
