/**
 * The values the AI read from a thing's photos, waiting for a person: each field with its current
 * value and the suggested ones (with how sure the model was), "Use this" to take one, and "Confirm"
 * for a value read from a photo and not checked yet. Nothing changes without a tap; each answer is
 * an op (thing.suggestion.accept / thing.field.confirm), so it works offline and shows at once.
 */
import { useState } from "react";
import type { View } from "../../sync/optimistic.js";
import type { ThingRow } from "../../db/rows.js";
import { fieldValueOf } from "../../sync/suggestion-ops.js";
import { fieldKeyLabel, fieldKeyValue, fieldsToReview, percentText, type SuggestedFieldDef } from "../../ui/ai-format.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { queueFieldConfirm, queueSuggestionAccept } from "../../ops/things/queue.js";
import { Notice } from "../../ui/Notice.js";
import "../../ui/ai.css";

export function SuggestionList({
  thing,
  defs,
  canEdit,
  titled = true,
}: {
  thing: View<ThingRow>;
  /** The custom fields of the thing's type (archived ones too), for labels and values. */
  defs: readonly SuggestedFieldDef[];
  canEdit: boolean;
  /** false where the section around it already says what this is (the thing page). */
  titled?: boolean;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { db } = useReady();
  const [note, setNote] = useState<string | null>(null);
  const keys = fieldsToReview(thing.fieldStatus, defs);
  if (!keys.length) return <Notice>{note}</Notice>;
  const done = () => setNote(t("thing.saved"));
  return (
    <section className="suggestions" aria-label={t("ai.suggestions")}>
      {titled ? <h3>{t("ai.suggestions")}</h3> : null}
      <p className="hint">{t("ai.suggestionsHint")}</p>
      <ul className="suggestion-list">
        {keys.map((key) => {
          const entry = thing.fieldStatus[key]!;
          const label = fieldKeyLabel(key, defs, t);
          const current = fieldKeyValue(key, fieldValueOf(thing, key), defs, i18n);
          return (
            <li key={key} data-field={key} className="suggestion" aria-label={label}>
              <strong>{label}</strong>
              <p className="current">
                <span className="meta">{t("ai.now")}</span> {current ? <bdi>{current}</bdi> : <span className="meta">{t("ai.empty")}</span>}
              </p>
              {entry.state === "extracted" ? (
                <div className="suggestion-row" data-state="extracted">
                  <span className="meta">
                    {t("ai.extracted")}
                    {entry.confidence !== undefined ? ` · ${t("ai.sure", { pct: percentText(entry.confidence, i18n) })}` : ""}
                  </span>
                  {canEdit ? (
                    <button
                      type="button"
                      aria-label={t("ai.confirmLabel", { field: label, value: current })}
                      onClick={() => void queueFieldConfirm(db, thing.locationId, thing.id, key).then(done)}
                    >
                      {t("ai.confirm")}
                    </button>
                  ) : null}
                </div>
              ) : null}
              {(entry.suggestions ?? []).map((s, i) => {
                const value = fieldKeyValue(key, s.value, defs, i18n);
                return (
                  <div key={`${s.source.extractionId}-${i}`} className="suggestion-row" data-extraction={s.source.extractionId}>
                    <span>
                      <span className="meta">{t("ai.suggested")}</span> <bdi className="suggested">{value || t("ai.empty")}</bdi>{" "}
                      <span className="meta">{t("ai.sure", { pct: percentText(s.confidence, i18n) })}</span>
                    </span>
                    {canEdit ? (
                      <button
                        type="button"
                        className="primary"
                        aria-label={t("ai.useLabel", { field: label, value })}
                        onClick={() => void queueSuggestionAccept(db, thing.locationId, thing.id, key, s.source.extractionId).then(done)}
                      >
                        {t("ai.use")}
                      </button>
                    ) : null}
                  </div>
                );
              })}
            </li>
          );
        })}
      </ul>
      <Notice>{note}</Notice>
    </section>
  );
}
