/**
 * An inbox `reading` item: a reading kept but doubted (lower than the one before it, or rising
 * faster than the meter's maxPerDay), or a meter not read for too long. It shows the meter, the
 * value, why, the readings either side and the proof; accepting or dismissing is an op like any
 * other review.
 */
import type { InboxRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { decimalText } from "./MeterFormat.js";
import { ReadingProof } from "./ReadingProof.js";
import { paths } from "../../ui/routes.js";

const REASONS: Record<string, MessageKey> = { backwards: "meters.reason.backwards", too_fast: "meters.reason.too_fast", overdue: "meters.reason.overdue" };

export function ReadingItem({ item, canEdit }: { item: InboxRow; canEdit: boolean }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const { db } = useReady();
  const r = item.payload.reading;
  if (!r) return null;
  const name = r.meter.label || t("meters.meter");
  const withUnit = (v: string) => `${decimalText(v, i18n)} ${r.meter.unit}`.trim();
  const reasonKey = REASONS[r.reason];
  const act = (op: "inbox.accept" | "inbox.dismiss") => void enqueue(db, { name: op, locationId: item.locationId, args: { id: item.id } });
  const { before, after } = r.neighbours;
  const overdue = r.reason === "overdue";
  return (
    <article className="card" aria-label={`${t("meters.inboxKind")}: ${name}`}>
      <h2>
        <Link to={paths.meter({ locationId: item.locationId, meterId: r.meter.id })}>{name}</Link>
      </h2>
      <div style={{ display: "flex", gap: "0.75rem", alignItems: "flex-start", minWidth: 0 }}>
        {r.proofThumbUrl ? <ReadingProof fileId={null} url={r.proofThumbUrl} alt={t("meters.proofOf", { value: withUnit(r.value) })} /> : null}
        <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>
          <p>
            <strong>{withUnit(r.value)}</strong> <span className="meta">{dateTime(r.takenAt)}</span>
          </p>
          <p>{t("meters.why", { reason: reasonKey ? t(reasonKey) : r.reason })}</p>
          {before ? <p className="meta">{t("meters.before", { value: withUnit(before.value), at: dateTime(before.takenAt) })}</p> : null}
          {after ? <p className="meta">{t("meters.after", { value: withUnit(after.value), at: dateTime(after.takenAt) })}</p> : null}
        </div>
      </div>
      {canEdit ? (
        <>
          {overdue ? null : <p className="hint">{t("meters.reviewHelp")}</p>}
          <div className="actions">
            <button type="button" className="primary" aria-label={`${t("inbox.accept")}: ${name}`} onClick={() => act("inbox.accept")}>
              {t("inbox.accept")}
            </button>
            <button type="button" aria-label={`${t("inbox.dismiss")}: ${name}`} onClick={() => act("inbox.dismiss")}>
              {t("inbox.dismiss")}
            </button>
          </div>
        </>
      ) : null}
    </article>
  );
}
