/** Instance administration (instance admins only): open or close sign-up, and the users of the instance, a page at a time. Needs the network. */
import { useState } from "react";
import type { AdminSettings, AdminUser, AdminUserList } from "../../../shared/admin.js";
import { api } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly, useOnlineLoad } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { errorText } from "../account/SignIn.js";

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
  const [settings, setSettings] = useState<AdminSettings | null>(null);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const more = (after: string | null) =>
    api<AdminUserList>("GET", `/api/v1/admin/users?limit=50${after ? `&cursor=${encodeURIComponent(after)}` : ""}`).then((page) => {
      setUsers((u) => (after ? [...u, ...page.items] : page.items));
      setCursor(page.next_cursor);
    });
  const { error, setError, fail } = useOnlineLoad(() => Promise.all([api<AdminSettings>("GET", "/api/v1/admin/settings").then(setSettings), more(null)]), []);

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
                void api<AdminSettings>("PATCH", "/api/v1/admin/settings", { signupOpen: e.target.checked }).then(
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
      {cursor ? (
        <button type="button" onClick={() => void more(cursor).catch(fail)}>
          {t("common.more")}
        </button>
      ) : null}
    </>
  );
}
