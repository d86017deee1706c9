/**
 * Settings' storage part: whether the browser keeps this device's data (persistent storage, asked
 * for once by the sync engine after the first sync: client/db/persist.ts), how much the app holds
 * and may hold, and, where the browser may clear it or cannot say, what the person can do.
 */
import { useEffect, useState } from "react";
import { askPersist, bytesText, storageReport, type StorageReport } from "../../db/persist.js";
import { useI18n } from "../../ui/i18n/i18n.js";

export function StorageStatus() {
  const { t, locale } = useI18n();
  const [report, setReport] = useState<StorageReport | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let shown = true;
    void storageReport().then((r) => shown && setReport(r));
    return () => {
      shown = false;
    };
  }, []);

  const askAgain = () => {
    setBusy(true);
    void askPersist()
      .then(() => storageReport())
      .then(setReport)
      .finally(() => setBusy(false));
  };

  if (!report) return null;
  const used = report.usage === undefined ? undefined : bytesText(report.usage, locale);
  return (
    <fieldset className="storage" aria-busy={busy}>
      <legend>{t("settings.storage")}</legend>
      <p role="status" data-persist={report.persist}>
        {t(`settings.storage.${report.persist}`)}
      </p>
      {report.persist === "granted" ? null : <p>{t(report.persist === "denied" ? "settings.storage.deniedAdvice" : "settings.storage.unsupportedAdvice")}</p>}
      {used === undefined ? null : (
        <p data-usage={report.usage} data-quota={report.quota}>
          {report.quota === undefined
            ? t("settings.storage.usageOnly", { used })
            : t("settings.storage.usage", { used, quota: bytesText(report.quota, locale) })}
        </p>
      )}
      {report.persist === "denied" ? (
        <button type="button" disabled={busy} onClick={askAgain}>
          {t("settings.storage.askAgain")}
        </button>
      ) : null}
    </fieldset>
  );
}
