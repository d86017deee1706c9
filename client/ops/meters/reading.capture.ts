/**
 * reading.capture: a meter reading, with no network. Its photo proof is kept in db.blobs under an
 * id made when it is queued (queue.ts), which the op names as its `fileId`; the pusher uploads the
 * photo before it pushes the op (blob-upload.ts), as it does for captures. A reading the server will doubt
 * (shared/meter-rules.ts) shows as waiting for review before it is pushed.
 */
import { plausibility } from "../../../shared/meter-rules.js";
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "reading.capture",
  // An implausible reading is also an inbox item.
  shapes: ["readings", "inbox"],
  apply: {
    meters: (state, op) => {
      const a = op.args;
      // The server files the reading under the meter's offset when it arrives; the device's best guess is the offset it shows now.
      const meter = state.meters.get(a.meterId);
      const offset = meter?.offset ?? "0";
      // The server's plausibility rule, over what the device holds: a doubtful reading shows as waiting for review at once.
      const held = [...state.readings.values()].filter((r) => r.meterId === a.meterId);
      const doubt = plausibility(held, { id: a.id, value: a.value, offset, takenAt: Date.parse(a.takenAt) }, meter?.maxPerDay ?? null);
      state.readings.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        meterId: a.meterId,
        value: a.value,
        offset,
        takenAt: a.takenAt,
        fileId: a.fileId ?? null,
        status: doubt ? "review" : "ok",
        reason: doubt?.reason ?? null,
        createdBy: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.reading.capture"),
});
