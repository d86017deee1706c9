/**
 * What the app says when something is refused or fails: a change the device refuses at once
 * (client/sync/checks.ts, sync/op-rules.ts), and the message of any other failure (a server's
 * answer, a network error), for the screens and the shared kit alike.
 */
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

/** The message of anything a request or a change can throw (an ApiError is an Error too). */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
