/**
 * A change that did not apply (sync_drop) in the inbox: what, why, by whom, what it would have
 * changed, and Re-apply where pushing it again can succeed.
 */
import { useState } from "react";
import type { InboxRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { opLabel as labelOf } from "../../ops/index.js";
import { reapply } from "../../sync/reapply.js";
import { reapplyCanSucceed } from "../../sync/checks.js";
import { useLive } from "../../ui/data.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";

/** "name: “Shelf”, quantity: 2": what a dropped op would have changed. */
function describeChange(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  const shown = (a.patch && typeof a.patch === "object" ? a.patch : a) as Record<string, unknown>;
  return Object.entries(shown)
    .filter(([k]) => k !== "id" && k !== "batchId")
    .map(([k, v]) => `${k}: ${typeof v === "string" ? `“${v}”` : JSON.stringify(v)}`)
    .join(", ");
}

export function DropItem({ item, things, canEdit }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [note, setNote] = useState<string | null>(null);
  const canReapply = useLive(() => reapplyCanSucceed(db, item), [db, item]);
  const drop = item.payload.syncDrop;
  if (!drop) return null;
  const target = drop.entity ? things.get(drop.entity.id) : undefined;
  const opLabel = labelOf(drop.op, t);
  const name = drop.entity?.name || thingName(target, t);
  const reason = t(`drop.${drop.reason}` as MessageKey);
  return (
    <article className="card drop" aria-label={`${t("inbox.kind.sync_drop")}: ${name}`}>
      <h2>{t("inbox.kind.sync_drop")}</h2>
      <p>{t("inbox.dropWhat", { op: opLabel, name })}</p>
      <p>{t("inbox.dropWhy", { reason: reason.startsWith("drop.") ? drop.reason : reason })}</p>
      {drop.message ? <p className="meta">{drop.message}</p> : null}
      {describeChange(drop.op.args) ? <p>{t("inbox.dropChange", { change: describeChange(drop.op.args) })}</p> : null}
      {drop.by ? <p className="meta">{t("inbox.dropBy", { name: drop.by.displayName })}</p> : null}
      {canEdit ? (
        <div className="actions">
          {/* Only where pushing it again can succeed (DR6); else only Dismiss. */}
          {canReapply ? (
            <button
              type="button"
              className="primary"
              aria-label={`${t("inbox.reapply")}: ${name}`}
              onClick={() => void reapply(db, item, target?.rowVersion).then((ok) => setNote(ok ? t("inbox.reapplied") : null))}
            >
              {t("inbox.reapply")}
            </button>
          ) : null}
          <button
            type="button"
            aria-label={`${t("inbox.dismiss")}: ${name}`}
            onClick={() => void enqueue(db, { name: "inbox.dismiss", locationId: item.locationId, args: { id: item.id } })}
          >
            {t("inbox.dismiss")}
          </button>
        </div>
      ) : null}
      {canEdit && canReapply === false ? <p className="hint">{t("inbox.noReapply")}</p> : null}
      <Notice>{note}</Notice>
    </article>
  );
}
