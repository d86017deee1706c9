/**
 * A thing's history, newest first, with undo while its window is open (history needs the network).
 * An entry made by an AI call (a suggestion applied) says what the call cost and who paid.
 */
import { useEffect, useState } from "react";
import type { HistoryEntry } from "../../../shared/history.js";
import { api } from "../../sync/api.js";
import { aiCallParts } from "../ai-format.js";
import { historyActor, historySummary } from "../history-summary.js";
import { useI18n } from "../i18n/i18n.js";
import { errorText } from "../screens/SignIn.js";
import { Notice } from "./Notice.js";
import "./ai.css";

type Entry = HistoryEntry;

export function History({ thingId, version, canEdit }: { thingId: string; version: number; canEdit: boolean }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const [items, setItems] = useState<Entry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () =>
    api<{ items: Entry[] }>("GET", `/api/v1/things/${thingId}/history`).then(
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
            const summary = historySummary(h, i18n);
            return (
              <li key={h.id}>
                <span>{summary}</span> <span className="meta">{`${historyActor(h, i18n)} · ${dateTime(h.at)}`}</span>
                {h.aiCall ? (
                  <span className="ai-line" data-ai-call="">
                    {aiCallParts(h.aiCall, i18n).join(" · ")}
                  </span>
                ) : null}
                {undoable ? (
                  <button
                    type="button"
                    aria-label={`${t("thing.undo")}: ${summary}`}
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
