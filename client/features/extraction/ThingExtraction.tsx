/**
 * The thing page's AI block: what the reading of its photos is doing, the values read and waiting
 * for a person (SuggestionList), "Read photos again" (POST /things/{id}/extractions, online only),
 * and, folded away, every reading of its photos with what its call cost (GET, online only).
 */
import { useState } from "react";
import type { ExtractionRecord, InboxExtraction } from "../../../shared/extractions.js";
import type { ThingRow } from "../../db/rows.js";
import { ApiError } from "../../sync/api.js";
import type { View } from "../../sync/optimistic.js";
import { aiCallParts, extractionStatusText, fieldKeyLabel, fieldsToReview, isolate, type SuggestedFieldDef } from "../../ui/ai-format.js";
import { useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { rerunExtraction, useExtractions } from "./hooks.js";
import { ExtractionStatus } from "./ExtractionStatus.js";
import { Notice } from "../../ui/Notice.js";
import { SuggestionList } from "./SuggestionList.js";
import "../../ui/ai.css";

function ExtractionList({ items, defs }: { items: ExtractionRecord[]; defs: readonly SuggestedFieldDef[] }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  if (!items.length) return <p className="hint">{t("ai.extractionsNone")}</p>;
  return (
    <ol>
      {items.map((x) => (
        <li key={x.id} data-extraction={x.id} data-status={x.status} data-attempt={x.attempt}>
          <span className="meta">{dateTime(x.createdAt)}</span>
          <p>{extractionStatusText(x, i18n)}</p>
          {x.applied.length ? <p className="meta">{t("ai.applied", { fields: x.applied.map((k) => fieldKeyLabel(k, defs, t)).join(", ") })}</p> : null}
          {x.call ? (
            <span className="ai-line">{aiCallParts(x.call, i18n).join(" · ")}</span>
          ) : x.model ? (
            <span className="ai-line">{t("ai.model", { model: isolate(x.model) })}</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function ThingExtraction({
  thing,
  defs,
  canEdit,
  extraction,
}: {
  thing: View<ThingRow>;
  defs: readonly SuggestedFieldDef[];
  canEdit: boolean;
  /** The latest extraction as the thing's inbox item carries it (synced, so shown offline too). */
  extraction: InboxExtraction | undefined;
}) {
  const { t } = useI18n();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState<ExtractionRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  // The list is read when it is opened, and again when the server's thing changes (a reading applied).
  const { items, error, setError, reload: load } = useExtractions(thing.id, thing.rowVersion, open, online);

  const rerun = () => {
    setNote(null);
    setError(null);
    if (!navigator.onLine) return setError(t("ai.rerunOffline"));
    setBusy(true);
    rerunExtraction(thing.id)
      .then(
        (record) => {
          setStarted(record);
          setNote(t("ai.rerunStarted"));
          if (open) void load();
        },
        (err: unknown) => setError(err instanceof ApiError && err.offline ? t("ai.rerunOffline") : errorText(err)),
      )
      .finally(() => setBusy(false));
  };

  // The newest we know of: one just started here, else the inbox item's, else the list's first.
  const latest = started ?? extraction ?? items?.[0];
  // A thing only this device knows has no photos on the server yet: nothing to read again.
  const canRerun = canEdit && thing.rowVersion > 0;
  // A viewer of a thing never read by the AI has nothing to see here.
  if (!latest && !canRerun && !fieldsToReview(thing.fieldStatus, defs).length) return null;
  return (
    <section aria-labelledby="ai-h" className="thing-ai">
      <h2 id="ai-h">{t("ai.statusTitle")}</h2>
      {latest ? <ExtractionStatus extraction={latest} /> : null}
      <SuggestionList thing={thing} defs={defs} canEdit={canEdit} titled={false} />
      {canRerun ? (
        <div className="actions">
          <button type="button" onClick={rerun} disabled={busy} aria-disabled={!online}>
            {t("ai.rerun")}
          </button>
        </div>
      ) : null}
      <Notice>{note}</Notice>
      <Notice kind="error">{error}</Notice>
      <details className="extractions" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{t("ai.extractions")}</summary>
        {!online && !items ? <p className="hint">{t("ai.extractionsOffline")}</p> : null}
        {items ? <ExtractionList items={items} defs={defs} /> : null}
      </details>
    </section>
  );
}
