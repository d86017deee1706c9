/**
 * Unpacking a box. In the move's own location (no target) the box goes to its destination place.
 * Into the target location, the box and everything in it (containers in containers) change
 * location: they keep their ids, photos, fields and history, and every row that belongs to them
 * goes along (photos and other files, history, meters and readings, codes, box checks, secret
 * values, inbox items, extractions and their AI calls, loans). The box lands in its destination
 * place there, or the target's Unplaced; its contents stay inside it. The change log turns each
 * row's location change into a delete for the devices of the old location (migration 0024).
 */
import { roleAtLeast } from "../../../shared/roles.js";
import { pick } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import type { CommandContext } from "../../commands/types.js";
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { moveBoxes, things } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, GoneError, type AppError } from "../../errors/classes.js";

export interface UnpackMove {
  id: string;
  locationId: string;
  toLocationId: string | null;
  toLocationName: string | null;
}
type BoxRow = typeof moveBoxes.$inferSelect;
type Moving = Pick<typeof things.$inferSelect, "id" | "locationId" | "placeId" | "containerId" | "name" | "typeId" | "rowVersion" | "deletedAt">;

const KEYS = ["locationId", "placeId", "containerId"] as const;

/** The box and what is in it, at any depth, in `locationId`; locked for the change. */
async function boxAndContents(tx: Tx, boxId: string, locationId: string): Promise<Moving[]> {
  return rows<Moving>(
    tx,
    sql`WITH RECURSIVE down(id, depth) AS (
          SELECT ${boxId}::uuid, 0
          UNION ALL
          SELECT t.id, d.depth + 1 FROM things t JOIN down d ON t.container_id = d.id WHERE t.location_id = ${locationId} AND d.depth < 64
        )
        SELECT t.id, t.location_id AS "locationId", t.place_id AS "placeId", t.container_id AS "containerId", t.name, t.type_id AS "typeId",
               t.row_version AS "rowVersion", t.deleted_at AS "deletedAt"
        FROM things t WHERE t.id IN (SELECT id FROM down) AND t.location_id = ${locationId} FOR UPDATE OF t`,
  );
}

/** A live place of `locationId`: the one asked for, else its Unplaced. */
async function landing(tx: Tx, locationId: string, placeId: string | null): Promise<{ id: string; name: string }> {
  const found = await rows<{ id: string; name: string; is_unplaced: boolean }>(
    tx,
    sql`SELECT id, name, is_unplaced FROM places WHERE location_id = ${locationId} AND deleted_at IS NULL
        AND (is_unplaced OR id = ${placeId ?? "00000000-0000-0000-0000-000000000000"}::uuid)`,
  );
  return found.find((p) => !p.is_unplaced) ?? found[0]!;
}

/**
 * Every row that belongs to the moving things goes with them. Files are those the things name: a
 * cover and photos, a file field's value, a reading's proof, an extraction's or a captured draft's photos.
 */
async function carryAlong(tx: Tx, ids: string[], from: string, to: string, now: Date): Promise<void> {
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

async function locationName(tx: Tx, id: string): Promise<string> {
  const [row] = await rows<{ name: string }>(tx, sql`SELECT name FROM locations WHERE id = ${id}`);
  return row?.name ?? "";
}

/** Moves the box's things where unpacking puts them; answers why not (nothing changed), or null. */
export async function unpackBox(ctx: CommandContext, move: UnpackMove, box: BoxRow): Promise<AppError | null> {
  const { tx } = ctx;
  const inBox = await boxAndContents(tx, box.containerId, move.locationId);
  const thing = inBox.find((t) => t.id === box.containerId);
  const goesTo = move.toLocationId ?? move.locationId;
  const changes = new SegmentChanges(ctx);
  if (!thing) {
    // Already in the target (moved there some other way), or gone.
    const [there] = await rows<Moving>(
      tx,
      sql`SELECT id, location_id AS "locationId", place_id AS "placeId", container_id AS "containerId", name, type_id AS "typeId", row_version AS "rowVersion", deleted_at AS "deletedAt"
          FROM things WHERE id = ${box.containerId} FOR UPDATE`,
    );
    if (!there || there.locationId !== goesTo) return new ConflictError(`Box ${box.number} is no longer in the move's location.`);
    if (there.deletedAt) return new GoneError("box");
    return null;
  }
  if (thing.deletedAt) return new GoneError("box");
  const role = move.toLocationId ? ctx.roles.get(move.toLocationId) : undefined;
  if (move.toLocationId && (!role || !roleAtLeast(role, "member"))) {
    const from = await locationName(tx, move.locationId);
    const to = move.toLocationName ?? "the target location";
    return new ForbiddenError(`You need to be a member of both "${from}" and "${to}" to unpack into "${to}"; ask an admin of "${to}" to add you.`, {
      needed: "member",
      locationId: move.toLocationId,
    });
  }
  const moving = move.toLocationId ? inBox : [thing];
  const place = await landing(tx, goesTo, box.destinationPlaceId);
  const [fromName, toName] = move.toLocationId ? [await locationName(tx, move.locationId), move.toLocationName ?? ""] : ["", ""];
  for (const t of moving) {
    const isBox = t.id === box.containerId;
    const next = { ...t, locationId: goesTo, ...(isBox ? { placeId: place.id, containerId: null } : {}), rowVersion: t.rowVersion + 1, updatedAt: ctx.now };
    if (!move.toLocationId && next.placeId === t.placeId && next.containerId === t.containerId) continue;
    if (!move.toLocationId && !box.destinationPlaceId) continue;
    changes.update(things, next, [...KEYS, "rowVersion", "updatedAt"]);
    if (t.deletedAt) continue;
    changes.record({
      locationId: goesTo,
      entityType: "thing",
      entityId: t.id,
      entityName: t.name,
      action: "thing.moved",
      before: pick(t, KEYS),
      after: pick(next, KEYS),
      summaryKey: move.toLocationId ? "thing.moved_location" : "thing.moved",
      summaryParams: {
        name: t.name ?? "",
        from: fromName || "?",
        to: isBox ? [toName, place.name].filter(Boolean).join(" / ") : toName,
        box: String(box.number),
      },
      rowVersionAfter: next.rowVersion,
      // Undoing one thing's location change would leave its box, photos and history behind.
      undoable: false,
      ...(move.toLocationId ? { movedInFromElsewhere: true } : {}),
    });
  }
  await changes.write();
  if (move.toLocationId)
    await carryAlong(
      tx,
      moving.map((t) => t.id),
      move.locationId,
      move.toLocationId,
      ctx.now,
    );
  return null;
}
