/** Progress of the first sync, shown until every shape has reached the server's present once. */
import { SYNCED_TABLES } from "../db/rows.js";
import { useI18n } from "./i18n/i18n.js";
import { useSyncStatus } from "./data.js";
import { useReady } from "./session.js";

export function FirstSyncProgress() {
  const { t } = useI18n();
  const { db } = useReady();
  const status = useSyncStatus(db);
  if (!status) return null;
  const done = SYNCED_TABLES.filter((n) => status.shapes[n]?.upToDate).length;
  if (done === SYNCED_TABLES.length) return null;
  const rows = SYNCED_TABLES.reduce((sum, n) => sum + (status.shapes[n]?.rows ?? 0), 0);
  return (
    <div className="first-sync" role="status">
      <progress max={SYNCED_TABLES.length} value={done} aria-label={t("sync.firstSync", { done, total: SYNCED_TABLES.length, rows })} />
      <span>{t("sync.firstSync", { done, total: SYNCED_TABLES.length, rows })}</span>
    </div>
  );
}
