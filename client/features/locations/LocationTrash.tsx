/**
 * The owner's deleted locations, on the Locations screen: each with the day it will be purged and a
 * Restore button. The trash lives on the server only (a deleted location is in no shape), so the
 * list is read when the screen opens and again when the device comes back online; offline, or
 * with nothing in the trash, the section is not shown at all.
 */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { restoreLocation, useLocationTrash } from "./hooks.js";

export function LocationTrash() {
  const { t, dateTime } = useI18n();
  const { engine } = useReady();
  const { items, reload: load } = useLocationTrash();
  const [busy, setBusy] = useState<string | null>(null);
  const [note, setNote] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  if (!items?.length && !note) return null;
  return (
    <section aria-labelledby="trash-title">
      <h2 id="trash-title">{t("trash.title")}</h2>
      <p className="hint">{t("trash.hint")}</p>
      <ul className="list">
        {(items ?? []).map((l) => (
          <li key={l.id} className="member">
            <span>
              <strong>{l.name}</strong>
              <span className="meta"> {t("trash.until", { date: dateTime(l.purgeAfter) })}</span>
            </span>
            <button
              type="button"
              aria-label={t("trash.restore", { name: l.name })}
              disabled={busy !== null}
              onClick={() => {
                setBusy(l.id);
                setNote(null);
                void restoreLocation(l.id)
                  .then(
                    () => {
                      setNote({ kind: "ok", text: t("trash.restored", { name: l.name }) });
                      load();
                      // The shapes were asked for without it (and most are paused between catch-ups):
                      // start again so the location and its rows arrive now.
                      engine.restart();
                    },
                    (err: unknown) => setNote({ kind: "error", text: errorText(err) }),
                  )
                  .finally(() => setBusy(null));
              }}
            >
              {t("trash.restoreShort")}
            </button>
          </li>
        ))}
      </ul>
      <Notice kind={note?.kind === "ok" ? "info" : "error"}>{note?.text ?? null}</Notice>
    </section>
  );
}
