/**
 * Exporting a location (owners and admins): pick what goes in, start it, follow its progress
 * (polled while it runs), download the zip or cancel; below, restoring an export and importing a
 * CSV (ImportData.tsx). Exports are built by the server, so the
 * screen needs a connection and says so offline.
 */
import { useEffect, useState } from "react";
import type { ExportRecord } from "../../../shared/exports.js";
import { api } from "../../sync/api.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { ImportData } from "./ImportData.js";
import { Notice } from "../../ui/Notice.js";
import { failure, useConnection } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { useLocationScreen } from "../../ui/use-location.js";

const OPTIONS = ["readable", "pdf", "ended", "trashed", "history", "aiCalls"] as const;
type Option = (typeof OPTIONS)[number];
const POLL_MS = 1000;
const unfinished = (e: ExportRecord) => e.status === "queued" || e.status === "running";

function size(bytes: number, num: (n: number) => string): string {
  if (bytes < 1024 * 1024) return `${num(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${num(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`;
}

function ExportItem({ item, onCancel, online }: { item: ExportRecord; onCancel: () => void; online: boolean }) {
  const { t, num, dateTime } = useI18n();
  const { done, total } = item.progress;
  const status =
    item.status === "running"
      ? t("export.status.running", { done: num(done), total: num(total) })
      : item.status === "succeeded"
        ? t("export.status.succeeded", { size: size(item.bytes ?? 0, num) })
        : item.status === "failed"
          ? t("export.status.failed", { error: item.error ?? "" })
          : t(`export.status.${item.status}` as MessageKey);
  return (
    <li className="export-item" data-status={item.status}>
      <div>
        <span className="meta">{dateTime(item.createdAt)}</span> <span role="status">{status}</span>
      </div>
      {unfinished(item) ? <progress max={Math.max(total, 1)} value={done} aria-label={status} /> : null}
      {item.status === "succeeded" && item.fileUrl ? (
        <p>
          <a className="button primary" href={item.fileUrl} download>
            {t("export.download")}
          </a>{" "}
          {item.expiresAt ? <span className="meta">{t("export.until", { date: dateTime(item.expiresAt) })}</span> : null}
          <br />
          <span className="meta export-sha">{t("export.sha", { sha: item.sha256 ?? "" })}</span>
        </p>
      ) : null}
      {unfinished(item) ? (
        <button type="button" className="danger" onClick={onCancel} disabled={!online}>
          {t("export.cancel")}
        </button>
      ) : null}
    </li>
  );
}

export function ExportScreen({ locationId }: { locationId: string }) {
  const { t, lang, digits } = useI18n();
  const data = useLocationScreen(locationId);
  const { connected: online, lost } = useConnection();
  const [chosen, setChosen] = useState<Record<Option, boolean>>({ readable: true, pdf: false, ended: false, trashed: false, history: false, aiCalls: false });
  const [items, setItems] = useState<ExportRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    api<{ items: ExportRecord[] }>("GET", "/api/v1/exports").then((r) => setItems(r.items.filter((e) => e.locationId === locationId)), failure(lost, setError));
  useEffect(() => {
    if (online && data?.canManage) void load();
  }, [online, locationId, data?.canManage]);
  // Follows unfinished exports until they end.
  const running = items.some(unfinished);
  useEffect(() => {
    if (!running || !online) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, online]);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("export.title")}</h1>
      <p className="hint">{t("export.hint")}</p>
      {!data.canManage ? (
        <p className="hint">{t("export.adminsOnly")}</p>
      ) : (
        <>
          {!online ? <p className="notice info">{t("export.offline")}</p> : null}
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              setBusy(true);
              setError(null);
              api<ExportRecord>("POST", "/api/v1/exports", {
                scope: "location",
                locationId,
                options: chosen,
                locale: lang,
                digits: lang === "ar" && digits === "arab" ? "eastern" : "western",
              })
                .then((made) => setItems((old) => [made, ...old]), failure(lost, setError))
                .finally(() => setBusy(false));
            }}
          >
            <fieldset>
              <legend>{t("export.options")}</legend>
              {OPTIONS.map((o) => (
                <label key={o}>
                  <input type="checkbox" name={o} checked={chosen[o]} onChange={(e) => setChosen({ ...chosen, [o]: e.target.checked })} />
                  {t(`export.opt.${o}`)}
                </label>
              ))}
            </fieldset>
            <button type="submit" className="primary" disabled={!online || busy}>
              {t("export.start")}
            </button>
          </form>
          <Notice kind="error">{error}</Notice>
          {items.length ? (
            <section aria-labelledby="exports-h">
              <h2 id="exports-h">{t("export.past")}</h2>
              <ul className="list">
                {items.map((item) => (
                  <ExportItem
                    key={item.id}
                    item={item}
                    online={online}
                    onCancel={() =>
                      void api<ExportRecord>("POST", `/api/v1/exports/${item.id}/cancel`).then(
                        (c) => setItems((old) => old.map((x) => (x.id === c.id ? c : x))),
                        failure(lost, setError),
                      )
                    }
                  />
                ))}
              </ul>
            </section>
          ) : null}
          <ImportData locationId={locationId} online={online} />
        </>
      )}
    </Shell>
  );
}
