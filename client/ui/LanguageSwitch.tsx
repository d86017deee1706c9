/**
 * The language choice on the pages a person sees before signing in (sign-in, sign-up, first-run
 * setup, invitation and emailed links): one button to the other language, each name in its own
 * language, remembered on this device like the choice in Settings.
 */
import { useI18n, type Lang } from "./i18n/i18n.js";
import { useLocation } from "./router.js";

/** Each language's name in itself. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", ar: "العربية" };

/** Pages a signed-out person reaches, where Settings (and its language choice) is out of reach. */
const SIGNED_OUT_PAGES = ["/sign-in", "/sign-up", "/setup", "/invite", "/magic", "/reset", "/confirm-email", "/two-factor"];

export function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  const { path } = useLocation();
  if (!SIGNED_OUT_PAGES.includes(path)) return null;
  const other: Lang = lang === "ar" ? "en" : "ar";
  return (
    <nav className="lang-switch" aria-label={t("settings.language")}>
      <button type="button" className="link" lang={other} onClick={() => setLang(other)}>
        {LANGUAGE_NAMES[other]}
      </button>
    </nav>
  );
}
