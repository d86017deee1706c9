/** Sync status: changes waiting (and what they are), last sent and received, problems, first sync. */
import { SYNCED_TABLES } from "../../db/rows.js";
import { opLabel as labelOf } from "../../ops/index.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useOutbox, useSyncStatus } from "../../ui/data.js";
import { FirstSyncProgress } from "../../ui/FirstSync.js";
import { Shell } from "../../ui/Shell.js";
import { useReady } from "../../ui/session.js";

export function SyncScreen() {
  const { t, dateTime, num } = useI18n();
  const { db, engine } = useReady();
  const status = useSyncStatus(db);
  const outbox = useOutbox(db) ?? [];
  const waiting = outbox.filter((e) => e.state === "pending");
  const rejected = outbox.filter((e) => e.state === "rejected");
  const opLabel = (name: string) => labelOf({ name }, t);
  return (
    <Shell>
      <h1>{t("sync.title")}</h1>
      <FirstSyncProgress />
      <p role="status" className="sync-summary">
        {waiting.length ? t("sync.pendingCount", { count: waiting.length }) : t("sync.allSynced")}
      </p>
      <button type="button" onClick={() => engine.kick()}>
        {t("sync.now")}
      </button>
      {waiting.length ? (
        <section aria-labelledby="waiting-h">
          <h2 id="waiting-h">{t("sync.pending")}</h2>
          <ol className="list">
            {waiting.map((e) => (
              <li key={e.seq}>
                {opLabel(e.op.name)} <span className="meta">{dateTime(e.op.at)}</span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <dl className="facts">
        <dt>{t("sync.lastPush")}</dt>
        <dd>{status?.lastPushAt ? dateTime(status.lastPushAt) : t("sync.never")}</dd>
        <dt>{t("sync.lastPull")}</dt>
        <dd>{status?.lastPullAt ? dateTime(status.lastPullAt) : t("sync.never")}</dd>
        <dt>{t("sync.errors")}</dt>
        <dd>{status?.error ? `${status.error.message} (${dateTime(status.error.at)})` : t("sync.noErrors")}</dd>
      </dl>
      <ul className="list">
        {SYNCED_TABLES.map((name) => (
          <li key={name}>
            {t("sync.shape", { name: t(`sync.table.${name}`), rows: status?.shapes[name]?.rows ?? 0 })} ·{" "}
            {status?.shapes[name]?.upToDate ? t("sync.upToDate") : t("sync.receiving")}
          </li>
        ))}
      </ul>
      {rejected.length ? (
        <section aria-labelledby="rejected-h">
          <h2 id="rejected-h">{t("sync.rejected")}</h2>
          <ul className="list">
            {rejected.map((e) => (
              <li key={e.seq}>
                {opLabel(e.op.name)}: {e.error}{" "}
                <button
                  type="button"
                  aria-label={`${t("sync.discard")}: ${opLabel(e.op.name)} ${num(e.seq ?? 0)}`}
                  onClick={() => void db.outbox.delete(e.seq ?? 0)}
                >
                  {t("sync.discard")}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Shell>
  );
}
