/** meter.delete: the meter and its readings leave the device's screens at once. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "meter.delete",
  shapes: ["meters"],
  apply: {
    meters: (state, op) => {
      state.meters.delete(op.args.id);
      for (const r of [...state.readings.values()]) if (r.meterId === op.args.id) state.readings.delete(r.id);
    },
  },
  label: (_op, t) => t("op.meter.delete"),
});
