/**
 * A place's details in its editor: its kind and the values of the kind's fields, saved as one
 * place.update (`kindId` and `fields`) against the version seen.
 */
import { useState } from "react";
import type { PlaceRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { fieldsPatch, toDraft, type FieldDraft, type FieldProblem } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeKindName } from "../../ui/names.js";
import { usePeople } from "../../ui/people.js";
import { placeKindFields, useRegistries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { FieldInput, FieldLists } from "../types/FieldInput.js";

/** The place's kind and the values of the kind's fields (place.update `kindId` and `fields`). */
export function PlaceDetails({ locationId, place, onSaved }: { locationId: string; place: PlaceRow; onSaved: (note: string) => void }) {
  const { t } = useI18n();
  const { db } = useReady();
  const reg = useRegistries(db, locationId);
  const people = usePeople(db, locationId);
  const [kindId, setKindId] = useState(place.kindId ?? "");
  const [drafts, setDrafts] = useState<Record<string, FieldDraft>>({});
  const [problem, setProblem] = useState<{ key: string; error: FieldProblem } | null>(null);
  if (!reg) return null;
  const kinds = reg.placeKinds.filter((k) => !k.archivedAt || k.id === place.kindId);
  const defs = kindId ? placeKindFields(kindId, reg.fields) : [];
  const values = place.fields ?? {};
  const base = place.rowVersion > 0 ? { baseVersion: place.rowVersion } : {};
  return (
    <form
      className="stack"
      aria-label={t("places.details")}
      onSubmit={(e) => {
        e.preventDefault();
        const fields = fieldsPatch(defs, values, drafts, false);
        if (!fields.ok) return setProblem({ key: fields.key, error: fields.error });
        setProblem(null);
        const patch: { kindId?: string | null; fields?: Record<string, unknown> } = {};
        if (kindId !== (place.kindId ?? "")) patch.kindId = kindId || null;
        if (Object.keys(fields.patch).length) patch.fields = fields.patch;
        if (!Object.keys(patch).length) return;
        void enqueue(db, { name: "place.update", locationId, args: { id: place.id, patch }, ...base }).then(() => {
          setDrafts({});
          onSaved(t("thing.saved"));
        });
      }}
    >
      <FieldLists personListId={`people-${place.id}`} people={people} />
      <label>
        {t("places.kind")}
        <select aria-label={t("places.kind")} value={kindId} onChange={(e) => setKindId(e.target.value)}>
          <option value="">{t("types.noParent")}</option>
          {kinds.map((k) => (
            <option key={k.id} value={k.id}>
              {placeKindName(k, t)}
            </option>
          ))}
        </select>
      </label>
      {defs.map((f) => (
        <FieldInput
          key={f.id}
          def={f}
          draft={drafts[f.key] ?? toDraft(f, values[f.key])}
          onChange={(d) => setDrafts({ ...drafts, [f.key]: d })}
          personListId={`people-${place.id}`}
          problem={problem?.key === f.key ? t(problem.error) : null}
        />
      ))}
      <button type="submit">{t("places.saveDetails")}</button>
    </form>
  );
}
