/**
 * Language and digits: English or Arabic (right to left), and for Arabic, western (123) or
 * eastern Arabic (١٢٣) digits. The choice lives in localStorage (a display preference, not data)
 * and sets <html lang dir>, so the layout mirrors through CSS logical properties. Messages are ICU
 * MessageFormat (format.ts): `{name}` parameters, and plurals in each language's own forms.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { messageFormatter, type Params } from "./format.js";
import { MESSAGES, type Digits, type Lang, type MessageKey } from "./catalogue.js";

export { isMessageKey, MESSAGES, type Digits, type Lang, type MessageKey } from "./catalogue.js";

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
