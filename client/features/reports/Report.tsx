/**
 * The inventory report form: which places and types, what to include, the report's language and
 * digits, and whether to mail the link. The report is made on the server (POST /reports/inventory),
 * so the form needs a connection; once asked, the screen follows the job every 2 s until it is
 * done and offers the download. The mailed link opens this screen with the report's id.
 */
import { useState } from "react";
import type { ReportDigits, ReportLocale } from "../../../shared/reports.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { startReport, useReportJob } from "./hooks.js";
import { ReportJobStatus } from "./ReportJobStatus.js";
import { placeName, typeName } from "../../ui/names.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { useLocation } from "../../ui/router.js";
import { useLocationScreen } from "../../ui/use-location.js";

/** Ticked ids, as a set that re-renders. */
function useTicks(): [Set<string>, (id: string, on: boolean) => void] {
  const [ticks, setTicks] = useState<Set<string>>(new Set());
  const tick = (id: string, on: boolean) =>
    setTicks((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return [ticks, tick];
}

export function ReportScreen({ locationId }: { locationId: string }) {
  const { t, lang, digits } = useI18n();
  const data = useLocationScreen(locationId);
  const [places, tickPlace] = useTicks();
  const [types, tickType] = useTicks();
  const [include, setInclude] = useState({ photos: true, qr: true, money: true, ended: false });
  const [locale, setLocale] = useState<ReportLocale>(lang);
  const [reportDigits, setReportDigits] = useState<ReportDigits>(lang === "ar" && digits === "arab" ? "eastern" : "western");
  const [email, setEmail] = useState(false);
  const [busy, setBusy] = useState(false);
  // Opened from the mail's link (`?id=`): shows that report.
  const { online, job, setJob, error, setError, fail } = useReportJob(useLocation().query.get("id"));

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const livePlaces = data.places.filter((p) => !p.deletedAt).sort((a, b) => placeName(a, t).localeCompare(placeName(b, t)));
  const toggle = (key: keyof typeof include) => (
    <label className="check">
      <input type="checkbox" checked={include[key]} onChange={(e) => setInclude({ ...include, [key]: e.target.checked })} />
      {t(`report.${key}`)}
    </label>
  );
  const submit = () => {
    setBusy(true);
    setError(null);
    setJob(null);
    const body = {
      scope: { locationId },
      filters: { placeIds: [...places], typeIds: [...types], includeEnded: include.ended },
      include: { photos: include.photos, qr: include.qr, money: include.money },
      locale,
      digits: reportDigits,
      email,
    };
    startReport(body)
      .then((made) => setJob({ id: made.id, locationId, status: "queued", expiresAt: made.expiresAt, createdAt: new Date().toISOString() }), fail)
      .finally(() => setBusy(false));
  };

  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("report.title")}</h1>
      <p className="hint">{t("report.hint")}</p>
      {!online ? <p className="notice info">{t("report.offline")}</p> : null}
      <form
        className="stack report-form"
        aria-label={t("report.title")}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {livePlaces.length ? (
          <fieldset>
            <legend>{t("report.places")}</legend>
            {livePlaces.map((p) => (
              <label key={p.id} className="check">
                <input type="checkbox" checked={places.has(p.id)} onChange={(e) => tickPlace(p.id, e.target.checked)} />
                {placeName(p, t)}
              </label>
            ))}
          </fieldset>
        ) : null}
        <fieldset>
          <legend>{t("report.types")}</legend>
          {data.types.map((ty) => (
            <label key={ty.id} className="check">
              <input type="checkbox" checked={types.has(ty.id)} onChange={(e) => tickType(ty.id, e.target.checked)} />
              {typeName(ty, t)}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t("report.include")}</legend>
          {toggle("photos")}
          {toggle("qr")}
          {toggle("money")}
          {toggle("ended")}
        </fieldset>
        <label>
          {t("report.locale")}
          <select value={locale} onChange={(e) => setLocale(e.target.value as ReportLocale)}>
            <option value="en">{t("report.locale.en")}</option>
            <option value="ar">{t("report.locale.ar")}</option>
          </select>
        </label>
        <label>
          {t("report.digits")}
          <select value={reportDigits} onChange={(e) => setReportDigits(e.target.value as ReportDigits)}>
            <option value="western">{t("report.digits.western")}</option>
            <option value="eastern">{t("report.digits.eastern")}</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} />
          {t("report.email")}
        </label>
        <button type="submit" className="primary" disabled={!online || busy || (!!job && job.status !== "done" && job.status !== "failed")}>
          {t("report.make")}
        </button>
      </form>
      <Notice kind="error">{error}</Notice>
      {job ? <ReportJobStatus job={job} /> : null}
    </Shell>
  );
}
