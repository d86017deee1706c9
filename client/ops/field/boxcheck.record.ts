/**
 * boxcheck.record: a check of one box, as the server applies it (server/modules/box-checks/): a
 * sighting only moves `lastSeenAt` later and clears a "not here" from before it; "not here" makes a
 * thing uncertain unless it was seen after that; things found in the box move into it.
 */
import type { BoxCheckSplit } from "../../../shared/box-checks.js";
import type { ThingRow } from "../../db/rows.js";
import { defineOp } from "../op.js";
import { edit, timeMs, type View } from "../rows.js";

export interface BoxFindings {
  seen: string[];
  notHere: string[];
  split: BoxCheckSplit[];
  movedIn: string[];
}

export const op = defineOp({
  name: "boxcheck.record",
  shapes: ["box_checks", "things"],
  apply: {
    local: (state, op) => {
      const { containerId, at, seen = [], notHere = [], split = [], movedIn = [] } = op.args;
      const when = timeMs(at);
      const sight = (t: View<ThingRow>): View<ThingRow> => ({
        ...t,
        lastSeenAt: t.lastSeenAt && timeMs(t.lastSeenAt) >= when ? t.lastSeenAt : at,
        missingSince: t.missingSince && timeMs(t.missingSince) > when ? t.missingSince : null,
      });
      for (const id of [containerId, ...seen, ...split.map((s) => s.thingId)]) edit(state.things, id, sight);
      for (const id of movedIn) edit(state.things, id, (t) => ({ ...sight(t), placeId: null, containerId }));
      for (const id of notHere)
        edit(state.things, id, (t) =>
          t.lastSeenAt && timeMs(t.lastSeenAt) > when ? t : { ...t, missingSince: t.missingSince && timeMs(t.missingSince) <= when ? t.missingSince : at },
        );
    },
  },
  label: (_op, t) => t("op.boxcheck.record"),
});
