/** meter.delete: the meter and its readings leave the device's screens at once. */
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MeterRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";

export function queueMeterDelete(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.delete", locationId: meter.locationId, args: { id: meter.id }, ...base });
}

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
