/** meter.update: with the rowVersion the device saw, so a concurrent edit becomes a sync_drop instead of silently winning. */
import { defineOp } from "../op.js";
import { perDayText } from "./per-day.js";

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
