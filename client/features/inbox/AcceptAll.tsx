/**
 * "Accept all" in the inbox: one inbox.accept op per open captured draft, queued on the device
 * (offline too) and pushed like any other, so the server checks each as a single accept. One that
 * cannot be accepted (someone reviewed it meanwhile) comes back as a `sync_drop` item: none is lost.
 */
import { useState } from "react";
import type { InboxRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { refusalText } from "../../ui/refusal.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";

export function AcceptAll({ locationId, drafts }: { locationId: string; drafts: InboxRow[] }) {
  const { t, num } = useI18n();
  const { db } = useReady();
  const [note, setNote] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  const accept = async () => {
    let queued = 0;
    try {
      for (const item of drafts) {
        await enqueue(db, { name: "inbox.accept", locationId, args: { id: item.id } });
        queued++;
      }
      setNote({ kind: "info", text: t("inbox.acceptedAll", { count: num(queued) }) });
    } catch (err) {
      setNote({ kind: "error", text: refusalText(t, err) });
    }
  };
  return (
    <div className="stack">
      {drafts.length > 1 ? (
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              if (window.confirm(t("inbox.acceptAllConfirm", { count: num(drafts.length) }))) void accept();
            }}
          >
            {t("inbox.acceptAll", { count: num(drafts.length) })}
          </button>
        </div>
      ) : null}
      <Notice kind={note?.kind ?? "info"}>{note?.text}</Notice>
    </div>
  );
}
