/**
 * One meter: its readings newest first and as a line over time, the estimate worked out on the
 * device, recording a reading with a photo proof, and editing or deleting the meter. Everything
 * reads Dexie and writes the outbox, so the screen works the same with no network.
 */
import { useState, type ReactNode } from "react";
import { queueMeterDelete, queueMeterUpdate } from "../../ops/meters/queue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useMeters } from "./MeterData.js";
import { MeterForm } from "./MeterForm.js";
import { meterName, valueWithUnit } from "./MeterFormat.js";
import { AdviceText } from "./MeterList.js";
import { Notice } from "../../ui/Notice.js";
import { ReadingChart } from "./ReadingChart.js";
import { ReadingForm } from "./ReadingForm.js";
import { ReadingProof } from "./ReadingProof.js";
import { Shell } from "../../ui/Shell.js";
import { Link, navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

export function MeterScreen({ locationId, meterId }: { locationId: string; meterId: string }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const views = useMeters(db, locationId, { meterId });
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  if (!data || !views) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const view = views[0];
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      {body}
    </Shell>
  );
  if (!view) return shell(<p>{t("meters.notFound")}</p>);
  const { meter } = view;
  const thing = data.things.find((th) => th.id === meter.thingId);
  const name = meterName(meter, t);

  return shell(
    <>
      <p>
        <Link to={paths.thing({ locationId, thingId: meter.thingId })}>{thingName(thing, t)}</Link>
      </p>
      <h1>{name}</h1>
      {meter.pending ? <p className="pending">{t("common.notSynced")}</p> : null}
      <dl className="facts">
        <dt>{t("meters.kind")}</dt>
        <dd>{t(`meters.kind.${meter.kind}`)}</dd>
        <dt>{t("meters.latest")}</dt>
        <dd>{view.latest ? `${valueWithUnit(view.latest.value, meter, i18n)} · ${dateTime(view.latest.takenAt)}` : t("meters.noReadings")}</dd>
        <dt>{t("meters.estimate")}</dt>
        <dd>
          <AdviceText view={view} />
        </dd>
        {view.needsReview ? (
          <>
            <dt>{t("meters.review")}</dt>
            <dd>
              <Link to={paths.inbox({ locationId })}>{t("meters.needsReview", { count: view.needsReview })}</Link>
            </dd>
          </>
        ) : null}
      </dl>
      {data.canEdit ? <ReadingForm view={view} /> : null}
      <section aria-labelledby="chart-h">
        <h2 id="chart-h">{t("meters.chart")}</h2>
        <ReadingChart readings={view.readings} unit={meter.unit} />
      </section>
      <section aria-labelledby="readings-h">
        <h2 id="readings-h">{t("meters.readings")}</h2>
        {view.readings.length ? (
          <ol className="list readings" aria-label={t("meters.readings")}>
            {view.readings.map((r) => {
              const shown = valueWithUnit(r.value, meter, i18n);
              return (
                <li key={r.id} aria-label={`${t("meters.reading")}: ${shown}`} style={{ display: "flex", gap: "0.75rem", alignItems: "center", minWidth: 0 }}>
                  {r.fileId ? <ReadingProof fileId={r.fileId} alt={t("meters.proofOf", { value: shown })} /> : null}
                  <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>
                    <strong>{shown}</strong> <span className="meta">{dateTime(r.takenAt)}</span>
                    {r.status !== "ok" ? (
                      <div className="meta">{r.status === "review" ? t(`meters.reason.${r.reason ?? "backwards"}`) : t("meters.rejected")}</div>
                    ) : null}
                    {r.pending ? <div className="pending">{t("common.notSynced")}</div> : null}
                  </div>
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="hint">{t("meters.noReadings")}</p>
        )}
      </section>
      {data.canEdit ? (
        <section aria-labelledby="meter-edit-h">
          <h2 id="meter-edit-h">{t("meters.edit")}</h2>
          {editing ? (
            <MeterForm
              key={`${meter.id}:${meter.rowVersion}`}
              meter={meter}
              onCancel={() => setEditing(false)}
              onSave={async (r) => {
                if (r.mode !== "edit") return;
                await queueMeterUpdate(db, meter, r.patch);
                setEditing(false);
                setNote(t("meters.updated"));
              }}
            />
          ) : (
            <div className="actions">
              <button type="button" onClick={() => setEditing(true)}>
                {t("meters.edit")}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (!window.confirm(t("meters.deleteConfirm", { name }))) return;
                  void queueMeterDelete(db, meter).then(() => navigate(paths.thing({ locationId, thingId: meter.thingId })));
                }}
              >
                {t("meters.delete")}
              </button>
            </div>
          )}
          <Notice>{note}</Notice>
        </section>
      ) : null}
    </>,
  );
}
