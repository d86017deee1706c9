/**
 * Language and digits: English or Arabic (right to left), and for Arabic, western (123) or
 * eastern Arabic (١٢٣) digits. The choice lives in localStorage (a display preference, not data)
 * and sets <html lang dir>, so the layout mirrors through CSS logical properties. Messages are ICU
 * MessageFormat (format.ts): `{name}` parameters, and plurals in each language's own forms.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
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
import { messageFormatter, type Params } from "./format.js";
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

export interface I18n {
  lang: Lang;
  digits: Digits;
  dir: "ltr" | "rtl";
  /** The Intl locale of the language and digits, for formats the messages do not cover (units, currencies). */
  locale: string;
  setLang: (lang: Lang) => void;
  setDigits: (digits: Digits) => void;
  /** The message in the reader's language; a number parameter is written in the reader's digits. */
  t: (key: MessageKey, params?: Params) => string;
  num: (n: number) => string;
  dateTime: (iso: string) => string;
}

/** Whether the catalogue has a message of this name (for keys made from data, such as a history entry's). */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(MESSAGES.en, key);

/** Everything of I18n but the setters: the words and numbers of one language and digits. */
export function formatting(lang: Lang, digits: Digits): Omit<I18n, "setLang" | "setDigits"> {
  // Western digits everywhere in English; in Arabic, the person's choice.
  const locale = lang === "ar" ? `ar-u-nu-${digits}` : "en";
  const numbers = new Intl.NumberFormat(locale);
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const num = (n: number) => numbers.format(n);
  return {
    lang,
    digits,
    dir: lang === "ar" ? "rtl" : "ltr",
    locale,
    num,
    dateTime: (iso) => {
      // Shapes carry Postgres text ("2026-11-22 12:00:00.1+00"); the API carries ISO 8601.
      const d = new Date(iso.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
      return Number.isNaN(d.getTime()) ? iso : dates.format(d);
    },
    t: messageFormatter(MESSAGES[lang], locale, num),
  };
}

const I18nContext = createContext<I18n | null>(null);

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  const v = globalThis.localStorage?.getItem(key);
  return allowed.includes(v as T) ? (v as T) : fallback;
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() => stored("lang", ["en", "ar"], navigator.language.startsWith("ar") ? "ar" : "en"));
  const [digits, setDigitsState] = useState<Digits>(() => stored("digits", ["latn", "arab"], "arab"));
  const dir = lang === "ar" ? "rtl" : "ltr";

  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
  }, [lang, dir]);

  const setLang = useCallback((l: Lang) => {
    localStorage.setItem("lang", l);
    setLangState(l);
  }, []);
  const setDigits = useCallback((d: Digits) => {
    localStorage.setItem("digits", d);
    setDigitsState(d);
  }, []);

  const value = useMemo<I18n>(() => ({ ...formatting(lang, digits), setLang, setDigits }), [lang, digits, setLang, setDigits]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(I18nContext);
  if (!v) throw new Error("useI18n outside I18nProvider");
  return v;
}
