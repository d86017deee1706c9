/** meter.create: a meter on a thing, made with no network. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";
import { perDayText } from "./per-day.js";

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
