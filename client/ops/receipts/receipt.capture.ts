/** receipt.capture: the server files the receipt as a `receipt` item with the purchase's id; it fills in when read. Its purchase is not synced. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "receipt.capture",
  shapes: ["inbox"],
  apply: {
    local: (state, op) =>
      void state.inbox.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        kind: "receipt",
        status: "open",
        thingId: null,
        batchId: op.args.batchId ?? op.args.id,
        capturedAt: op.at,
        createdBy: null,
        payload: { receipt: { purchaseId: op.args.id, pages: op.args.photoFileIds.map((fileId) => ({ fileId })), lines: [] } },
        undoEventId: null,
        resolvedAt: null,
        resolvedBy: null,
        ...stamps(op),
        pending: true,
      }),
  },
  label: (_op, t) => t("op.receipt.capture"),
});
