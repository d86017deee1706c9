/**
 * An inbox `receipt` item: the pages, what was read (shop, date, total; amounts absent where the
 * reader's role hides money), and the lines with a marker on those that do not add up. A reviewer
 * decides each line (a new thing, a link to an existing one, or skip) and accepts: one
 * `inbox.accept` op with the decisions, so it works offline like any review.
 */
import { useState } from "react";
import type { ReceiptLineDecision } from "../../../shared/receipts.js";
import type { InboxRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { useReady } from "../../ui/session.js";
import { ReadingProof } from "../meters/ReadingProof.js";

type Action = ReceiptLineDecision["action"];

const amount = (value: string | undefined, currency: string | undefined) => (value ? `${value}${currency ? ` ${currency}` : ""}` : "—");

export function ReceiptItem({ item, things, canEdit }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const { db } = useReady();
  const receipt = item.payload.receipt;
  const [actions, setActions] = useState<Record<number, Action>>({});
  const [links, setLinks] = useState<Record<number, string>>({});
  if (!receipt) return null;
  const status = item.payload.extraction?.status;
  const reading = status === "queued" || status === "running" || status === "waiting_provider" || status === "paused_budget";
  const notRead = !reading && status !== undefined && status !== "succeeded";
  const title = receipt.vendorSeen ?? t("receipt.item");
  const candidates = [...things.values()].filter((th) => th.lifecycle !== "draft" && !th.deletedAt);
  const hidden = receipt.moneyHidden === true;

  const accept = () => {
    const lines = receipt.lines.map((l): ReceiptLineDecision => {
      const action = actions[l.index] ?? "create";
      const thingId = links[l.index] ?? candidates[0]?.id;
      return action === "link" && thingId ? { index: l.index, action, thingId } : { index: l.index, action: action === "link" ? "create" : action };
    });
    void enqueue(db, { name: "inbox.accept", locationId: item.locationId, args: { id: item.id, lines } });
  };

  return (
    <article className="card receipt" aria-label={`${t("receipt.item")}: ${title}`}>
      <h2>{title}</h2>
      <p className="meta">
        {t("receipt.item")} · {dateTime(item.capturedAt)}
      </p>
      <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
        {receipt.pages.map((p, i) => (
          <ReadingProof key={p.fileId} fileId={p.fileId} alt={t("receipt.page", { n: String(i + 1) })} />
        ))}
      </div>
      {reading ? <p className="meta">{t("receipt.reading")}</p> : null}
      {notRead ? <p className="meta">{t("receipt.notRead")}</p> : null}
      <dl style={{ display: "grid", gridTemplateColumns: "auto 1fr", gap: "0.25rem 0.75rem", margin: 0 }}>
        <dt>{t("receipt.vendor")}</dt>
        <dd style={{ margin: 0 }}>{receipt.vendorSeen ?? "—"}</dd>
        <dt>{t("receipt.date")}</dt>
        <dd style={{ margin: 0 }}>{receipt.purchasedOn ?? "—"}</dd>
        {hidden ? null : (
          <>
            <dt>{t("receipt.total")}</dt>
            <dd style={{ margin: 0 }}>{amount(receipt.total, receipt.currency)}</dd>
            {receipt.tax ? (
              <>
                <dt>{t("receipt.tax")}</dt>
                <dd style={{ margin: 0 }}>{amount(receipt.tax, receipt.currency)}</dd>
              </>
            ) : null}
          </>
        )}
      </dl>
      {hidden ? <p className="meta">{t("receipt.moneyHidden")}</p> : null}
      {receipt.lines.length ? (
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {receipt.lines.map((l) => {
            const action = actions[l.index] ?? "create";
            return (
              <li key={l.index} style={{ borderTop: "1px solid var(--line, #ddd)", paddingTop: "0.5rem", overflowWrap: "anywhere" }}>
                <p style={{ margin: 0 }}>
                  {l.flagged ? (
                    <span role="img" aria-label={t("receipt.flagged")} title={t("receipt.flagged")}>
                      ⚠️{" "}
                    </span>
                  ) : null}
                  {l.description} {t("receipt.quantity", { quantity: l.quantity })}
                  {!hidden && l.unitPrice ? ` · ${amount(l.unitPrice, receipt.currency)}` : ""}
                </p>
                {l.flagged ? <p className="meta">{t("receipt.flagged")}</p> : null}
                {canEdit ? (
                  <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
                    <select
                      aria-label={t("receipt.action", { line: l.description })}
                      value={action}
                      onChange={(e) => setActions({ ...actions, [l.index]: e.target.value as Action })}
                    >
                      <option value="create">{t("receipt.action.create")}</option>
                      {candidates.length ? <option value="link">{t("receipt.action.link")}</option> : null}
                      <option value="skip">{t("receipt.action.skip")}</option>
                    </select>
                    {action === "link" ? (
                      <select
                        aria-label={t("receipt.linkTo", { line: l.description })}
                        value={links[l.index] ?? candidates[0]?.id ?? ""}
                        onChange={(e) => setLinks({ ...links, [l.index]: e.target.value })}
                        style={{ maxWidth: "100%" }}
                      >
                        {candidates.map((c) => (
                          <option key={c.id} value={c.id}>
                            {thingName(c, t)}
                          </option>
                        ))}
                      </select>
                    ) : null}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : reading ? null : (
        <p className="meta">{t("receipt.noLines")}</p>
      )}
      {canEdit ? (
        <div className="actions">
          <button type="button" className="primary" aria-label={`${t("receipt.accept")}: ${title}`} onClick={accept}>
            {t("receipt.accept")}
          </button>
          <button
            type="button"
            aria-label={`${t("inbox.dismiss")}: ${title}`}
            onClick={() => void enqueue(db, { name: "inbox.dismiss", locationId: item.locationId, args: { id: item.id } })}
          >
            {t("inbox.dismiss")}
          </button>
        </div>
      ) : null}
    </article>
  );
}
