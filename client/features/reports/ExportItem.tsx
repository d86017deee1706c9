/** One export on the export screen: its state and progress, the download with its checksum once made, Cancel while it runs. */
import type { ExportRecord } from "../../../shared/exports.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { unfinishedExport as unfinished } from "./hooks.js";

function size(bytes: number, num: (n: number) => string): string {
  if (bytes < 1024 * 1024) return `${num(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${num(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`;
}

export function ExportItem({ item, onCancel, online }: { item: ExportRecord; onCancel: () => void; online: boolean }) {
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
