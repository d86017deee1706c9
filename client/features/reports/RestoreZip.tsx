/** Restoring an export's zip into this location when it is empty (owners and admins, online). */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { useReady } from "../../ui/session.js";
import { restoreExport, type Restored } from "./hooks.js";

export function RestoreZip({ locationId, online }: { locationId: string; online: boolean }) {
  const { t } = useI18n();
  const { engine } = useReady();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Restored | null>(null);
  const [error, setError] = useState<string | null>(null);
  const skipped = done ? Object.values(done.skipped).reduce((a, b) => a + b, 0) : 0;
  return (
    <form
      className="stack"
      aria-labelledby="restore-h"
      onSubmit={(e) => {
        e.preventDefault();
        if (!file) return;
        setBusy(true);
        setError(null);
        setDone(null);
        restoreExport(locationId, file)
          .then(
            (r) => {
              setDone(r);
              // The restored rows are in the change log, but most shapes are paused between
              // catch-ups (a push wakes them; a restore is no push): catch them all up now.
              engine.kick();
            },
            (err: unknown) => setError(errorText(err)),
          )
          .finally(() => setBusy(false));
      }}
    >
      <h3 id="restore-h">{t("import.restore.title")}</h3>
      <p className="hint">{t("import.restore.hint")}</p>
      <label>
        {t("import.restore.file")}
        <input type="file" accept=".zip,application/zip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
      <button type="submit" disabled={!online || !file || busy}>
        {busy ? t("import.working") : t("import.restore.go")}
      </button>
      <Notice kind="error">{error}</Notice>
      {done ? (
        <p role="status" className="notice success">
          {t("import.restore.done", { things: done.things, places: done.places, photos: done.photos })}
          {skipped ? ` ${t("import.restore.skipped", { n: skipped })}` : ""}
        </p>
      ) : null}
    </form>
  );
}
