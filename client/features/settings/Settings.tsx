/** Language, digits, notifications, AI providers and cost, and signing out (with a warning when changes have not reached the server). */
import { useI18n, type Digits, type Lang } from "../../ui/i18n/i18n.js";
import { useOutbox } from "../../ui/data.js";
import { AiCosts } from "./AiCosts.js";
import { AiSettings } from "./AiSettings.js";
import { AdminLink } from "./AdminLink.js";
import { LANGUAGE_NAMES } from "../../ui/LanguageSwitch.js";
import { signOut } from "./hooks.js";
import { NotificationSetting } from "./NotificationSetting.js";
import { StorageStatus } from "./StorageStatus.js";
import { Shell } from "../../ui/Shell.js";
import { disablePush } from "../../ui/push.js";
import { Link, navigate } from "../../ui/router.js";
import { AccountLinks } from "../account/Security.js";
import { useReady, useSession } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

export function SettingsScreen() {
  const { t, lang, digits, setLang, setDigits } = useI18n();
  const { db } = useReady();
  const { signOutLocally } = useSession();
  const unsynced = (useOutbox(db) ?? []).filter((e) => e.state === "pending").length;
  // The registries belong to an account: reached through the last location opened.
  const lastLocation = localStorage.getItem("lastLocation");
  return (
    <Shell>
      <h1>{t("settings.title")}</h1>
      {lastLocation ? (
        <p>
          <Link to={paths.types({ locationId: lastLocation })}>{t("types.link")}</Link>
        </p>
      ) : null}
      {lastLocation ? (
        <p>
          <Link to={paths.export({ locationId: lastLocation })}>{t("export.link")}</Link>
        </p>
      ) : null}
      <AdminLink />
      <fieldset>
        <legend>{t("settings.language")}</legend>
        {(Object.entries(LANGUAGE_NAMES) as [Lang, string][]).map(([value, label]) => (
          <label key={value} lang={value}>
            <input type="radio" name="lang" value={value} checked={lang === value} onChange={() => setLang(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={lang !== "ar"}>
        <legend>{t("settings.digits")}</legend>
        {(["arab", "latn"] as Digits[]).map((value) => (
          <label key={value}>
            <input type="radio" name="digits" value={value} checked={digits === value} onChange={() => setDigits(value)} />
            {t(`settings.digits.${value}`)}
          </label>
        ))}
      </fieldset>
      <AccountLinks />
      <NotificationSetting />
      <StorageStatus />
      <AiSettings />
      {/* The cost summary is of one location: the last one opened, as for the types link. */}
      {lastLocation ? <AiCosts locationId={lastLocation} /> : null}
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (unsynced && !window.confirm(t("auth.signOutUnsynced", { count: unsynced }))) return;
          // This device stops receiving the account's notifications before the session ends.
          void disablePush()
            .catch(() => undefined)
            .then(() => signOut())
            .catch(() => undefined)
            .then(signOutLocally)
            .then(() => navigate(paths.signIn(), { replace: true }));
        }}
      >
        {t("auth.signOut")}
      </button>
    </Shell>
  );
}
