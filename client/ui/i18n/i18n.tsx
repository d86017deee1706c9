/**
 * Language and digits: English or Arabic (right to left), and for Arabic, western (123) or
 * eastern Arabic (١٢٣) digits. The choice lives in localStorage (a display preference, not data)
 * and sets <html lang dir>, so the layout mirrors through CSS logical properties.
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
import { reportAr, reportEn } from "./report.js";
import { shareAr, shareEn } from "./share.js";
import { exportAr, exportEn } from "./export.js";
import { securityAr, securityEn } from "./security.js";
import { accountAr, accountEn } from "./account.js";
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
  | keyof typeof reportEn
  | keyof typeof shareEn
  | keyof typeof exportEn
  | keyof typeof securityEn
  | keyof typeof accountEn
  | keyof typeof photosEn;

export type Lang = "en" | "ar";
export type Digits = "latn" | "arab";

const MESSAGES: Record<Lang, Record<MessageKey, string>> = {
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
    ...reportEn,
    ...shareEn,
    ...exportEn,
    ...securityEn,
    ...accountEn,
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
    ...reportAr,
    ...shareAr,
    ...exportAr,
    ...securityAr,
    ...accountAr,
    ...photosAr,
  },
};

export interface I18n {
  lang: Lang;
  digits: Digits;
  dir: "ltr" | "rtl";
  setLang: (lang: Lang) => void;
  setDigits: (digits: Digits) => void;
  t: (key: MessageKey, params?: Record<string, string | number>) => string;
  num: (n: number) => string;
  dateTime: (iso: string) => string;
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

  const value = useMemo<I18n>(() => {
    // Western digits everywhere in English; in Arabic, the person's choice.
    const locale = lang === "ar" ? `ar-u-nu-${digits}` : "en";
    const numbers = new Intl.NumberFormat(locale);
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    const num = (n: number) => numbers.format(n);
    return {
      lang,
      digits,
      dir,
      setLang,
      setDigits,
      num,
      dateTime: (iso) => {
        // Shapes carry Postgres text ("2026-11-22 12:00:00.1+00"); the API carries ISO 8601.
        const d = new Date(iso.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
        return Number.isNaN(d.getTime()) ? iso : dates.format(d);
      },
      t: (key, params) => {
        const text: string = MESSAGES[lang][key];
        if (!params) return text;
        return text.replace(/\{(\w+)\}/g, (_, name: string) => {
          const v = params[name];
          return v === undefined ? `{${name}}` : typeof v === "number" ? num(v) : v;
        });
      },
    };
  }, [lang, digits, dir, setLang, setDigits]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(I18nContext);
  if (!v) throw new Error("useI18n outside I18nProvider");
  return v;
}
