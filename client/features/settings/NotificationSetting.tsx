/** The notification opt-in in Settings: state, turn on (asks permission), turn off. */
import { useEffect, useRef, useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { disablePush, enablePush, pushState, renewPush, type PushState } from "../../ui/push.js";

export function NotificationSetting() {
  const { t, lang } = useI18n();
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shownLang = useRef(lang);

  useEffect(() => {
    void pushState().then(setState);
  }, []);
  // Notifications are written in the app's language: a new choice is sent to the server.
  useEffect(() => {
    if (shownLang.current === lang) return;
    shownLang.current = lang;
    if (state === "on") void renewPush(lang).catch(() => undefined);
  }, [lang, state]);

  const change = (to: () => Promise<PushState>) => {
    setBusy(true);
    setError(null);
    to()
      .then(setState)
      .catch((err: unknown) => setError(t("notifications.failed", { message: err instanceof Error ? err.message : String(err) })))
      .finally(() => setBusy(false));
  };

  return (
    <fieldset className="notifications" aria-busy={busy}>
      <legend>{t("notifications.title")}</legend>
      <p>{t("notifications.explain")}</p>
      {state === "unsupported" ? <p>{t("notifications.unsupported")}</p> : null}
      {state === "denied" ? <p role="alert">{t("notifications.denied")}</p> : null}
      {state === "on" || state === "off" ? (
        <>
          <p role="status">{t(state === "on" ? "notifications.on" : "notifications.off")}</p>
          <button type="button" disabled={busy} onClick={() => change(state === "on" ? disablePush : () => enablePush(lang))}>
            {busy ? t("notifications.working") : t(state === "on" ? "notifications.turnOff" : "notifications.turnOn")}
          </button>
        </>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </fieldset>
  );
}
