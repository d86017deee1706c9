/**
 * Label sheets (admins): print a sheet of new codes as QR labels, open its PDF, see the sheets
 * printed before and how many of their labels are on something. Printing needs the server (it
 * hands out the codes), so the screen says so when the device is offline.
 */
import { useState } from "react";
import { LABEL_SHEET_MAX, formatCode, type LabelSheet } from "../../../shared/codes.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { printLabelSheet, useLabelSheets } from "./hooks.js";
import { Shell } from "../../ui/Shell.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";

/** 24 labels fill one A4 page (shared/codes.ts). */
const PER_PAGE = 24;

function SheetItem({ sheet, claimed }: { sheet: LabelSheet; claimed: number }) {
  const { t, num, dateTime } = useI18n();
  return (
    <li>
      <a href={sheet.pdfUrl} target="_blank" rel="noopener">
        {t("labels.sheet", { count: sheet.size, date: dateTime(sheet.createdAt) })}
      </a>{" "}
      <span className="meta">
        {t("labels.used", { used: num(claimed), count: num(sheet.size) })}
        {sheet.codes.length ? ` · ${formatCode(sheet.codes[0]!)} … ${formatCode(sheet.codes.at(-1)!)}` : ""}
      </span>
    </li>
  );
}

export function LabelsScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const [count, setCount] = useState(String(PER_PAGE));
  const [made, setMade] = useState<LabelSheet | null>(null);
  const { online, sheets, reload: load, error, setError, fail } = useLabelSheets(locationId, !!data?.canManage);
  const [busy, setBusy] = useState(false);
  // How many labels of each sheet are on something, from the device's codes (works offline).
  const claimedBySheet = useLive(async () => {
    const out = new Map<string, number>();
    for (const c of await db.codes.toArray())
      if (c.locationId === locationId && c.sheetId && (c.thingId || c.placeId) && !c.deletedAt) out.set(c.sheetId, (out.get(c.sheetId) ?? 0) + 1);
    return out;
  }, [db, locationId]);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const n = Number(count);
  const valid = Number.isInteger(n) && n >= 1 && n <= LABEL_SHEET_MAX;
  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("labels.title")}</h1>
      <p className="hint">{t("labels.hint")}</p>
      {!data.canManage ? (
        <p className="hint">{t("labels.adminsOnly")}</p>
      ) : (
        <>
          {!online ? <p className="notice info">{t("labels.offline")}</p> : null}
          <form
            className="stack inline"
            onSubmit={(e) => {
              e.preventDefault();
              if (!valid) return setError(t("labels.badCount", { max: LABEL_SHEET_MAX }));
              setBusy(true);
              setError(null);
              printLabelSheet(locationId, n)
                .then((sheet) => {
                  setMade(sheet);
                  void load();
                }, fail)
                .finally(() => setBusy(false));
            }}
          >
            <label>
              {t("labels.count")}
              <input type="number" inputMode="numeric" value={count} onChange={(e) => setCount(e.target.value)} />
            </label>
            <button type="submit" className="primary" disabled={!online || busy}>
              {t("labels.print")}
            </button>
          </form>
          <Notice kind="error">{error}</Notice>
          {made ? (
            <p className="notice info" role="status">
              {t("labels.made", { count: made.size })}{" "}
              <a href={made.pdfUrl} target="_blank" rel="noopener">
                {t("labels.openPdf")}
              </a>
            </p>
          ) : null}
          {sheets?.length ? (
            <section aria-labelledby="sheets-h">
              <h2 id="sheets-h">{t("labels.past")}</h2>
              <ul className="list">
                {sheets.map((s) => (
                  <SheetItem key={s.id} sheet={s} claimed={claimedBySheet?.get(s.id) ?? 0} />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </Shell>
  );
}
