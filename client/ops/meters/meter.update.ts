/** meter.update: with the rowVersion the device saw, so a concurrent edit becomes a sync_drop instead of silently winning. */
import type { MeterUpdateArgs } from "../../../shared/meters.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MeterRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";
import { perDayText } from "./per-day.js";

export function queueMeterUpdate(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">, patch: MeterUpdateArgs["patch"]): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.update", locationId: meter.locationId, args: { id: meter.id, patch }, ...base });
}

export const op = defineOp({
  name: "meter.update",
  shapes: ["meters"],
  apply: {
    meters: (state, op) => {
      const m = state.meters.get(op.args.id);
      if (!m) return;
      const p = op.args.patch;
      state.meters.set(m.id, {
        ...m,
        ...(p.label !== undefined ? { label: p.label?.trim() || null } : {}),
        ...(p.maxPerDay !== undefined ? { maxPerDay: perDayText(p.maxPerDay) } : {}),
        ...(p.nudgeDays !== undefined ? { nudgeDays: p.nudgeDays } : {}),
        ...(p.offset !== undefined ? { offset: p.offset } : {}),
        ...(p.unit !== undefined ? { unit: p.unit.trim() } : {}),
        ...(p.kind !== undefined ? { kind: p.kind } : {}),
        updatedAt: op.at,
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.meter.update"),
});
