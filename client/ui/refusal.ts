/** What the app says when the device refuses a change at once (client/sync/checks.ts, sync/op-rules.ts). */
import type { Refusal } from "../../sync/op-rules.js";
import { RefusedHere } from "../sync/checks.js";
import type { I18n, MessageKey } from "./i18n/i18n.js";

/** The message of each rule (a place's and a container's contents read the same). */
const KEYS: Record<Refusal["rule"], MessageKey> = {
  role: "refusal.role",
  unplaced: "refusal.unplaced",
  holds_places: "places.holdsPlaces",
  holds_things: "places.holdsThings",
};

export const refusalKey = (r: Refusal): MessageKey => KEYS[r.rule];

/** The refusal in the person's language; any other failure is not ours to word, so it is thrown on. */
export function refusalText(t: I18n["t"], err: unknown): string {
  if (err instanceof RefusedHere) return t(refusalKey(err.refusal));
  throw err;
}
