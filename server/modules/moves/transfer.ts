/**
 * Unpacking a box. In the move's own location (no target) the box goes to its destination place.
 * Into the target location, the box and everything in it (containers in containers) change
 * location: they keep their ids, photos, fields and history, and every row that belongs to them
 * goes along (photos and other files, history, meters and readings, codes, box checks, secret
 * values, inbox items, extractions and their AI calls, loans: server/commands/carry-along.ts). The box lands in its destination
 * place there, or the target's Unplaced; its contents stay inside it. The change log turns each
 * row's location change into a delete for the devices of the old location (migration 0024).
 */
import { roleAtLeast } from "../../../shared/roles.js";
import { carryAlong } from "../../commands/carry-along.js";
import { pick } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import type { CommandContext } from "../../commands/types.js";
import { rows, sql, type Tx } from "../../db/client.js";
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
      ctx,
      moving.map((t) => t.id),
      move.locationId,
      move.toLocationId,
    );
  return null;
}
