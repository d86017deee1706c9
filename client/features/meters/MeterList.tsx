/**
 * A thing's meters on its page: each with its latest value, what waits for review and the
 * estimate's advice, linking to the meter's page; and adding a meter (an op, so it works offline).
 */
import { useState } from "react";
import { queueMeterCreate } from "../../ops/meters/queue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useMeters, type MeterView } from "./MeterData.js";
import { MeterForm } from "./MeterForm.js";
import { Notice } from "../../ui/Notice.js";
import { meterName, valueWithUnit } from "./MeterFormat.js";
import { paths } from "../../ui/routes.js";

export function AdviceText({ view }: { view: MeterView }) {
  const i18n = useI18n();
  const { t } = i18n;
  const e = view.estimate;
  const perDay = e.perDay !== null ? t("meters.perDay", { value: valueWithUnit(e.perDay, view.meter, i18n) }) : "";
  const advice = t(`meters.advice.${e.advice}`, { days: e.ageDays ?? 0, nudge: view.meter.nudgeDays ?? 0 });
  return (
    <span className="meta">
      {perDay ? `${perDay} · ` : ""}
      {advice}
      {e.perDay !== null && e.basisDays !== null ? ` · ${t("meters.basis", { days: e.basisDays })}` : ""}
    </span>
  );
}

export function ThingMeters({ locationId, thingId, canEdit }: { locationId: string; thingId: string; canEdit: boolean }) {
  const i18n = useI18n();
  const { t, num } = i18n;
  const { db } = useReady();
  const views = useMeters(db, locationId, { thingId });
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  if (!views) return null;
  return (
    <section aria-labelledby="meters-h">
      <h2 id="meters-h">{t("meters.title")}</h2>
      {views.length ? (
        <ul className="list">
          {views.map((v) => {
            const name = meterName(v.meter, t);
            return (
              <li key={v.meter.id}>
                {/* The word "Meter" is read, not shown: an aria-label would hide the reading that is shown (WCAG 2.5.3). */}
                <Link to={paths.meter({ locationId, meterId: v.meter.id })}>
                  <span className="visually-hidden">{`${t("meters.meter")}: `}</span>
                  <strong>{name}</strong> <span>{v.latest ? valueWithUnit(v.latest.value, v.meter, i18n) : t("meters.noReadings")}</span>
                </Link>{" "}
                {v.needsReview ? <span className="badge">{t("meters.needsReview", { count: num(v.needsReview) })}</span> : null}{" "}
                {v.meter.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
                {v.estimate.advice !== "none" ? (
                  <div>
                    <AdviceText view={v} />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="hint">{t("meters.none")}</p>
      )}
      {canEdit ? (
        adding ? (
          <MeterForm
            onCancel={() => setAdding(false)}
            onSave={async (r) => {
              if (r.mode !== "create") return;
              await queueMeterCreate(db, locationId, { thingId, ...r.args });
              setAdding(false);
              setNote(t("meters.added"));
            }}
          />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            {t("meters.add")}
          </button>
        )
      ) : null}
      <Notice>{note}</Notice>
    </section>
  );
}
