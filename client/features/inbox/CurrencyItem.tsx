/**
 * An inbox `currency` item: a receipt printed a symbol several currencies share ("$", "kr"); the
 * reviewer picks one of the options (the location's usual currency first) and accepts, as an op.
 */
import { useState } from "react";
import type { InboxRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";

export function CurrencyItem({ item, canEdit }: { item: InboxRow; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const { db } = useReady();
  const asked = item.payload.currency;
  const [picked, setPicked] = useState("");
  if (!asked) return null;
  const choice = picked || asked.options[0] || "";
  return (
    <article className="card" aria-label={`${t("currency.item")}: ${asked.seen}`}>
      <h2>{t("currency.item")}</h2>
      <p className="meta">
        {t("receipt.item")} · {dateTime(item.capturedAt)}
      </p>
      <p>{t("currency.seen", { seen: asked.seen })}</p>
      {canEdit ? (
        <form
          className="stack inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (choice) void enqueue(db, { name: "inbox.accept", locationId: item.locationId, args: { id: item.id, currency: choice } });
          }}
        >
          <label>
            {t("currency.pick")}
            <select aria-label={t("currency.pick")} value={choice} onChange={(e) => setPicked(e.target.value)}>
              {asked.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              {t("currency.accept", { currency: choice })}
            </button>
            <button type="button" onClick={() => void enqueue(db, { name: "inbox.dismiss", locationId: item.locationId, args: { id: item.id } })}>
              {t("inbox.dismiss")}
            </button>
          </div>
        </form>
      ) : null}
    </article>
  );
}
