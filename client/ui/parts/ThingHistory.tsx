/** A thing's history, newest first, with undo while its window is open (history needs the network). */
import { useEffect, useState } from "react";
import type { HistoryEntry } from "../../../shared/history.js";
import { api } from "../../sync/api.js";
import { useI18n } from "../i18n/i18n.js";
import { errorText } from "../screens/SignIn.js";
import { Notice } from "./Notice.js";

export function History({ thingId, version, canEdit }: { thingId: string; version: number; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const [items, setItems] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () =>
    api<{ items: HistoryEntry[] }>("GET", `/api/v1/things/${thingId}/history`).then(
      (r) => {
        setItems(r.items);
        setError(null);
      },
      () => setError(t("thing.historyOffline")),
    );
  // Again whenever the server's version of the thing changes (a shape brought a new change).
  useEffect(() => {
    void load();
  }, [thingId, version]);
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">{t("thing.history")}</h2>
      <Notice kind="error">{error}</Notice>
      <Notice>{note}</Notice>
      {items ? (
        <ol className="history">
          {items.map((h) => {
            const undoable = canEdit && h.undoable_until && Date.parse(h.undoable_until) > Date.now();
            return (
              <li key={h.id}>
                <span>{h.summary}</span> <span className="meta">{`${h.actor.displayName} · ${dateTime(h.at)}`}</span>
                {undoable ? (
                  <button
                    type="button"
                    aria-label={`${t("thing.undo")}: ${h.summary}`}
                    onClick={() =>
                      void api("POST", `/api/v1/history/${h.id}/undo`).then(
                        () => {
                          setNote(t("thing.undone"));
                          void load();
                        },
                        (err: unknown) => setError(errorText(err)),
                      )
                    }
                  >
                    {t("thing.undo")}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}
