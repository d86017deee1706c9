/** box.add: a box joins an active move, packed. Its number is a guess until the server's row arrives (the server numbers boxes). */
import { defineOp } from "../op.js";
import { boxKey } from "./boxes.js";

export const op = defineOp({
  name: "box.add",
  shapes: ["move_boxes"],
  apply: {
    moves: (state, op) => {
      const a = op.args;
      const move = state.moves.get(a.moveId);
      if (!move || move.status !== "active" || state.boxes.has(boxKey(a.moveId, a.containerId))) return;
      const numbers = [...state.boxes.values()].filter((b) => b.moveId === a.moveId).map((b) => b.number);
      state.boxes.set(boxKey(a.moveId, a.containerId), {
        id: a.id,
        locationId: op.locationId,
        moveId: a.moveId,
        containerId: a.containerId,
        number: Math.max(0, ...numbers) + 1,
        state: "packed",
        stateAt: a.at ?? op.at,
        destinationPlaceId: a.destination?.placeId ?? null,
        destinationName: a.destination?.name ?? null,
        rowVersion: 0,
        createdAt: op.at,
        updatedAt: op.at,
        deletedAt: null,
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.box.add"),
});
