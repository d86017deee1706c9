/**
 * thing.suggestion.accept ("Use this"): the suggestion's value goes in the field at once, offline
 * too, as the server does it (server/modules/extractions/): the field is marked `confirmed` and its
 * suggestions cleared. A suggestion the device does not hold changes nothing (the server decides).
 */
import type { FieldStatusEntry } from "../../../shared/extractions.js";
import type { ThingRow } from "../../db/rows.js";
import { findSuggestion, withFieldValue } from "../../sync/suggestion-ops.js";
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

/** The thing after accepting; the same row when the suggestion is not on it. */
export function acceptSuggestion<T extends ThingRow>(thing: T, field: string, extractionId: string): T {
  const s = findSuggestion(thing.fieldStatus, field, extractionId);
  if (!s) return thing;
  const entry: FieldStatusEntry = { state: "confirmed", confidence: s.confidence };
  return { ...withFieldValue(thing, field, s.value), fieldStatus: { ...thing.fieldStatus, [field]: entry } };
}

export const op = defineOp({
  name: "thing.suggestion.accept",
  shapes: ["things"],
  apply: {
    local: (state, op) => edit(state.things, op.args.id, (t) => ({ ...acceptSuggestion(t, op.args.field, op.args.extractionId), updatedAt: op.at })),
  },
  label: (_op, t) => t("op.thing.suggestion.accept"),
});
