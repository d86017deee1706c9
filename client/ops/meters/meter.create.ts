/** meter.create: a meter on a thing, made with no network. */
import { v7 as uuidv7 } from "uuid";
import type { MeterCreateArgs } from "../../../shared/meters.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";
import { perDayText } from "./per-day.js";

export function queueMeterCreate(db: InventoryDb, locationId: string, args: Omit<MeterCreateArgs, "id">): Promise<Op> {
  return enqueue(db, { name: "meter.create", locationId, args: { id: uuidv7(), ...args } });
}

export const op = defineOp({
  name: "meter.create",
  shapes: ["meters"],
  apply: {
    meters: (state, op) => {
      const a = op.args;
      state.meters.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        thingId: a.thingId,
        kind: a.kind,
        unit: a.unit.trim(),
        label: a.label?.trim() || null,
        offset: a.offset ?? "0",
        maxPerDay: perDayText(a.maxPerDay),
        nudgeDays: a.nudgeDays ?? null,
        nudgedFor: null,
        createdBy: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.meter.create"),
});
