/**
 * The catalogue: every message of both languages, assembled from the core list (en.ts, ar.ts)
 * and each screen group's own file. i18n.tsx holds the language choice and the formatting.
 */
import { aiAr, aiEn } from "./ai.js";
import { ar } from "./ar.js";
import { en } from "./en.js";
import { fieldAr, fieldEn } from "./field.js";
import { metersAr, metersEn } from "./meters.js";
import { loansAr, loansEn } from "./loans.js";
import { notificationsAr, notificationsEn } from "./notifications.js";
import { receiptsAr, receiptsEn } from "./receipts.js";
import { movesAr, movesEn } from "./moves.js";
import { webhooksAr, webhooksEn } from "./webhooks.js";
import { auditAr, auditEn } from "./audit.js";
import { reportAr, reportEn } from "./report.js";
import { shareAr, shareEn } from "./share.js";
import { exportAr, exportEn } from "./export.js";
import { securityAr, securityEn } from "./security.js";
import { accountAr, accountEn } from "./account.js";
import { searchAr, searchEn } from "./search.js";
import { locationsAr, locationsEn } from "./locations.js";
import { historyAr, historyEn } from "./history.js";
import { syncAr, syncEn } from "./sync.js";
import { loadingAr, loadingEn } from "./loading.js";
import { captureAr, captureEn } from "./capture.js";
import { connectionAr, connectionEn } from "./connection.js";
import { historyChangesAr, historyChangesEn } from "./history-changes.js";
import { inviteAr, inviteEn } from "./invite.js";
import { photosAr, photosEn } from "./photos.js";

/** Every message key: the core list (en.ts) and each screen group's own file. */
export type MessageKey =
  | keyof typeof en
  | keyof typeof metersEn
  | keyof typeof fieldEn
  | keyof typeof notificationsEn
  | keyof typeof aiEn
  | keyof typeof receiptsEn
  | keyof typeof loansEn
  | keyof typeof movesEn
  | keyof typeof webhooksEn
  | keyof typeof auditEn
  | keyof typeof reportEn
  | keyof typeof shareEn
  | keyof typeof exportEn
  | keyof typeof securityEn
  | keyof typeof accountEn
  | keyof typeof searchEn
  | keyof typeof locationsEn
  | keyof typeof historyEn
  | keyof typeof syncEn
  | keyof typeof loadingEn
  | keyof typeof captureEn
  | keyof typeof connectionEn
  | keyof typeof historyChangesEn
  | keyof typeof inviteEn
  | keyof typeof photosEn;

export type Lang = "en" | "ar";
export type Digits = "latn" | "arab";

/** Every message of both languages (test/unit/client/i18n-catalogue.test.ts checks they match and parse). */
export const MESSAGES: Record<Lang, Record<MessageKey, string>> = {
  en: {
    ...en,
    ...metersEn,
    ...fieldEn,
    ...notificationsEn,
    ...aiEn,
    ...receiptsEn,
    ...loansEn,
    ...movesEn,
    ...webhooksEn,
    ...auditEn,
    ...reportEn,
    ...shareEn,
    ...exportEn,
    ...securityEn,
    ...accountEn,
    ...searchEn,
    ...locationsEn,
    ...historyEn,
    ...syncEn,
    ...loadingEn,
    ...captureEn,
    ...connectionEn,
    ...historyChangesEn,
    ...inviteEn,
    ...photosEn,
  },
  ar: {
    ...ar,
    ...metersAr,
    ...fieldAr,
    ...notificationsAr,
    ...aiAr,
    ...receiptsAr,
    ...loansAr,
    ...movesAr,
    ...webhooksAr,
    ...auditAr,
    ...reportAr,
    ...shareAr,
    ...exportAr,
    ...securityAr,
    ...accountAr,
    ...searchAr,
    ...locationsAr,
    ...historyAr,
    ...syncAr,
    ...loadingAr,
    ...captureAr,
    ...connectionAr,
    ...historyChangesAr,
    ...inviteAr,
    ...photosAr,
  },
};

/** Whether the catalogue has a message of this name (for keys made from data, such as a history entry's). */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(MESSAGES.en, key);
