/**
 * The language choice on the pages a person sees before signing in (sign-in, sign-up, first-run
 * setup, invitation and emailed links): one button to the other language, each name in its own
 * language, remembered on this device like the choice in Settings.
 */
import { useI18n, type Lang } from "./i18n/i18n.js";
import { useLocation } from "./router.js";
import { isBeforeSignIn } from "./routes.js";

/** Each language's name in itself. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", ar: "العربية" };

export function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  const { path } = useLocation();
  // Pages a signed-out person reaches, where Settings (and its language choice) is out of reach.
  if (!isBeforeSignIn(path)) return null;
  const other: Lang = lang === "ar" ? "en" : "ar";
  return (
    <nav className="lang-switch" aria-label={t("settings.language")}>
      <button type="button" className="link" lang={other} onClick={() => setLang(other)}>
        {LANGUAGE_NAMES[other]}
      </button>
    </nav>
  );
}
