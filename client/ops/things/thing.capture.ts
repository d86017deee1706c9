/** thing.capture: a quick capture is a draft thing with its photos and a `draft` inbox item, or straight in where the location says so. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";
import { newThing } from "./new-thing.js";

export const op = defineOp({
  name: "thing.capture",
  shapes: ["things", "inbox"],
  apply: {
    local: (state, op) => {
      const thing = newThing(op, state.templates);
      // Where the person's own captures go straight in, the server accepts the draft as it arrives.
      if (state.straightIn?.has(op.locationId)) {
        state.things.set(op.args.id, { ...thing, lifecycle: "active" });
        return;
      }
      state.things.set(op.args.id, thing);
      // The server files every capture as a `draft` inbox item with the thing's id.
      state.inbox.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        kind: "draft",
        status: "open",
        thingId: op.args.id,
        batchId: op.args.batchId ?? op.args.id,
        capturedAt: op.at,
        createdBy: null,
        payload: { photos: (op.args.photoFileIds ?? []).map((fileId) => ({ fileId })) },
        undoEventId: null,
        resolvedAt: null,
        resolvedBy: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.thing.capture"),
});
