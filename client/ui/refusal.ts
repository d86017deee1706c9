/** What the app says when the device refuses a change at once (client/sync/checks.ts). */
import { RefusedHere } from "../sync/checks.js";
import type { I18n } from "./i18n/i18n.js";

/** The refusal in the person's language; any other failure is not ours to word, so it is thrown on. */
export function refusalText(t: I18n["t"], err: unknown): string {
  if (err instanceof RefusedHere) return t(`refusal.${err.refusal.rule}`);
  throw err;
}
