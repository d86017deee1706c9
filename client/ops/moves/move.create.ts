/** move.create: a move started with no signal; it shows active at once. */
import { v7 as uuidv7 } from "uuid";
import type { InventoryDb } from "../../db/database.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export async function queueMoveCreate(db: InventoryDb, locationId: string, name: string, toLocationId: string | null): Promise<string> {
  const id = uuidv7();
  await enqueue(db, { name: "move.create", locationId, args: { id, name, ...(toLocationId ? { toLocationId } : {}) } });
  return id;
}

export const op = defineOp({
  name: "move.create",
  shapes: ["moves"],
  apply: {
    moves: (state, op) => {
      const a = op.args;
      state.moves.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        toLocationId: a.toLocationId ?? null,
        toLocationName: null,
        name: a.name.trim(),
        status: "active",
        createdBy: null,
        finishedAt: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.move.create"),
});
