/**
 * Recording a reading: the value as typed (a decimal string, checked by the shared schema), when
 * it was taken (now unless the person sets a time) and a photo proof from the camera. Saved on the
 * device at once as a `reading.capture` op; a value the server will doubt (lower than the reading
 * before it, or rising faster than maxPerDay) is warned about here, and the server keeps it but
 * puts it in the inbox.
 */
import { useRef, useState } from "react";
import { readingValueSchema } from "../../../shared/meters.js";
import { queueReading } from "../../ops/meters/queue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { doubtOf, type MeterView } from "./MeterData.js";
import { valueWithUnit } from "./MeterFormat.js";
import { Notice } from "../../ui/Notice.js";

/** The `datetime-local` text of a moment, in this device's time zone. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
}

export function ReadingForm({ view }: { view: MeterView }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { db } = useReady();
  const [value, setValue] = useState("");
  const [when, setWhen] = useState(() => localInput(Date.now()));
  // Untouched, the time is the moment of saving, so readings taken one after another keep their order.
  const [whenSet, setWhenSet] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const photoRef = useRef<HTMLInputElement>(null);

  const typed = value.trim();
  const valid = readingValueSchema.safeParse(typed).success;
  const at = whenSet ? new Date(when).getTime() : Date.now();
  const doubt = valid && !Number.isNaN(at) ? doubtOf(view, typed, at) : null;

  const save = async () => {
    if (!valid) return setProblem(t("meters.error.value"));
    if (Number.isNaN(at) || at > Date.now() + 5 * 60_000) return setProblem(t("meters.error.takenAt"));
    setProblem(null);
    const photo = photoRef.current?.files?.[0];
    await queueReading(db, view.meter, { value: typed, takenAt: new Date(at).toISOString(), photo });
    setNote(t(doubt ? "meters.savedReview" : "meters.saved", { value: valueWithUnit(typed, view.meter, i18n) }));
    setValue("");
    setWhenSet(false);
    setWhen(localInput(Date.now()));
    if (photoRef.current) photoRef.current.value = "";
  };

  return (
    <form
      className="stack"
      aria-label={t("meters.record")}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>{t("meters.record")}</h2>
      <label>
        {t("meters.value", { unit: view.meter.unit })}
        <input inputMode="decimal" dir="ltr" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" />
      </label>
      {doubt ? (
        <p className="notice error" role="alert">
          {t(doubt.reason === "too_fast" ? "meters.tooFastWarning" : "meters.backwardsWarning", {
            other: valueWithUnit(doubt.neighbour.value, view.meter, i18n),
            at: i18n.dateTime(doubt.neighbour.takenAt),
          })}
        </p>
      ) : null}
      <label>
        {t("meters.takenAt")}
        <input
          type="datetime-local"
          step={1}
          value={when}
          onChange={(e) => {
            setWhen(e.target.value);
            setWhenSet(true);
          }}
        />
      </label>
      <label>
        {t("meters.photoProof")}
        <input ref={photoRef} type="file" accept="image/*" capture="environment" />
      </label>
      <button type="submit" className="primary">
        {t("meters.saveReading")}
      </button>
      <Notice kind="error">{problem}</Notice>
      <Notice>{note}</Notice>
    </form>
  );
}
