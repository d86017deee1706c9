/** The devices signed in to this account (this one marked): sign one out, or every other one at once. */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { signOutOtherSessions, signOutSession, useDevices } from "./hooks.js";
import { AccountScreen } from "./Security.js";

/** A short name for a browser from its user agent ("Chrome on Android"); the full string stays in the title. */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return [browser, os].filter(Boolean).join(" · ") || null;
}

export function DevicesScreen() {
  const { t } = useI18n();
  return (
    <AccountScreen title={t("devices.title")}>
      <Devices />
    </AccountScreen>
  );
}

function Devices() {
  const { t, num, dateTime } = useI18n();
  const [note, setNote] = useState<string | null>(null);
  const { sessions, error, fail, reload: load } = useDevices((message) => t("security.failed", { message }));
  const others = (sessions ?? []).filter((s) => !s.current).length;
  return (
    <>
      <Notice>{note}</Notice>
      <Notice kind="error">{error}</Notice>
      <ul className="list">
        {(sessions ?? []).map((s) => {
          // Other devices are numbered among themselves, so two of the same browser have different names.
          const nth = (sessions ?? []).filter((o) => !o.current).indexOf(s) + 1;
          const name = s.current ? t("devices.this") : `${deviceName(s.userAgent) ?? t("devices.unknown")} (${num(nth)})`;
          return (
            <li key={s.id}>
              <div className="member">
                <span title={s.userAgent ?? undefined}>
                  {s.current ? <strong>{name}</strong> : name}
                  {s.current && deviceName(s.userAgent) ? ` · ${deviceName(s.userAgent)}` : ""}
                </span>
                {s.current ? null : (
                  <button
                    type="button"
                    className="icon-close"
                    aria-label={t("devices.signOut", { name })}
                    onClick={() => {
                      setNote(null);
                      // The list is read again before the note shows, so what the note says is what the list shows.
                      void signOutSession(s.id).then(() => load().then(() => setNote(t("devices.signedOut"))), fail);
                    }}
                  />
                )}
              </div>
              <span className="meta">
                {t("devices.seen", { date: dateTime(s.lastSeenAt) })}
                {s.ip ? (
                  <>
                    {" · "}
                    <bdi dir="ltr">{s.ip}</bdi>
                  </>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <button
          type="button"
          className="danger"
          onClick={() => {
            setNote(null);
            void signOutOtherSessions().then((r) => load().then(() => setNote(t("devices.signedOutOthers", { count: r.signedOut }))), fail);
          }}
        >
          {t("devices.signOutOthers")}
        </button>
      ) : null}
    </>
  );
}
