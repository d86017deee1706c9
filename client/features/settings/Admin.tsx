/** Instance administration (instance admins only): open or close sign-up, and the users of the instance, a page at a time. Needs the network. */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { errorText } from "../../ui/refusal.js";
import { saveAdminSettings, useAdmin } from "./hooks.js";

export function AdminScreen() {
  const { t } = useI18n();
  return (
    <Shell>
      <h1>{t("admin.title")}</h1>
      <OnlineOnly>
        <Admin />
      </OnlineOnly>
    </Shell>
  );
}

function Admin() {
  const { t, dateTime } = useI18n();
  const [saved, setSaved] = useState(false);
  const { settings, setSettings, users, hasMore, more, error, setError, fail } = useAdmin();

  return (
    <>
      <Notice kind="error">{error}</Notice>
      {settings ? (
        <fieldset>
          <legend>{t("admin.signup")}</legend>
          <label>
            <input
              type="checkbox"
              checked={settings.signupOpen}
              onChange={(e) => {
                const before = settings;
                setSaved(false);
                setError(null);
                // Shown at once; put back if the server refuses.
                setSettings({ ...settings, signupOpen: e.target.checked });
                void saveAdminSettings({ signupOpen: e.target.checked }).then(
                  (s) => {
                    setSettings(s);
                    setSaved(true);
                  },
                  (err: unknown) => {
                    setSettings(before);
                    setError(errorText(err));
                  },
                );
              }}
            />
            {t("admin.signupOpen")}
          </label>
          {settings.signupOpenByConfig ? <p className="hint">{t("admin.signupByConfig")}</p> : null}
          <Notice>{saved ? t("admin.saved") : null}</Notice>
        </fieldset>
      ) : null}
      <h2>{t("admin.users")}</h2>
      <ul className="list" aria-label={t("admin.users")}>
        {users.map((u) => (
          <li key={u.id}>
            <span>
              {u.name} <span className="meta">{u.email ?? u.username ?? ""}</span>
            </span>
            <span className="meta">
              {[u.instanceAdmin ? t("admin.isAdmin") : null, u.email === null ? t("admin.managed") : null, dateTime(u.createdAt)].filter(Boolean).join(" · ")}
            </span>
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" onClick={() => void more().catch(fail)}>
          {t("common.more")}
        </button>
      ) : null}
    </>
  );
}
