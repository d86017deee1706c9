/** Where the report being made is, and its download (until it expires) once done. */
import type { ReportState } from "../../../shared/reports.js";
import { useI18n } from "../../ui/i18n/i18n.js";

export function ReportJobStatus({ job }: { job: ReportState }) {
  const { t, dateTime } = useI18n();
  return (
    <p className="notice info" role="status" data-status={job.status}>
      {t(`report.status.${job.status}`, { error: job.error ?? "" })}{" "}
      {job.status === "done" && job.fileUrl ? (
        <>
          <a href={job.fileUrl} download>
            {t("report.download")}
          </a>{" "}
          <span className="meta">{t("report.expires", { date: dateTime(job.expiresAt) })}</span>
        </>
      ) : null}
    </p>
  );
}
