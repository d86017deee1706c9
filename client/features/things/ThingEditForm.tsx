/**
 * A thing's edit form: name, quantity, type and the fields of the chosen type. The save is an op
 * with the rowVersion seen, so a concurrent edit of the same field becomes a sync_drop instead of
 * silently winning; required fields hold it back once the thing is past its draft.
 */
import { useState } from "react";
import type { ThingRow, TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { fieldsPatch, toDraft, type FieldDraft, type FieldProblem } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { typeName } from "../../ui/names.js";
import { Notice } from "../../ui/Notice.js";
import { usePeople } from "../../ui/people.js";
import { effectiveFields, type Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { type ThingEdit } from "../../ops/things/thing.update.js";
import { queueThingUpdate } from "../../ops/things/queue.js";
import { FieldInput, FieldLists } from "../types/FieldInput.js";
import type { FileChoice } from "../types/FieldOne.js";

interface Props {
  locationId: string;
  thing: View<ThingRow>;
  types: TypeRow[];
  reg: Registries;
  files: FileChoice[];
}

export function ThingEditForm({ locationId, thing, types, reg, files }: Props) {
  const { t } = useI18n();
  const { db } = useReady();
  const people = usePeople(db, locationId);
  const [draft, setDraft] = useState<{ name: string; quantity: string; typeId: string; fields: Record<string, FieldDraft> } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ key: string; error: FieldProblem } | null>(null);
  const values = thing.fields ?? {};
  // Quantities are decimal strings ("1.000" from the server); people type "1".
  const form = draft ?? { name: thing.name ?? "", quantity: String(Number(thing.quantity)), typeId: thing.typeId ?? "", fields: {} };
  const editFields = effectiveFields(form.typeId || thing.typeId, reg.typesById, reg.fields);
  const fieldDraft = (key: string): FieldDraft => {
    const def = editFields.find((e) => e.field.key === key)!.field;
    return form.fields[key] ?? (def.secret ? "" : toDraft(def, values[key]));
  };

  const save = async () => {
    const patch: ThingEdit = {};
    if (form.name.trim() !== (thing.name ?? "")) patch.name = form.name.trim() || null;
    if (Number(form.quantity) !== Number(thing.quantity) && Number(form.quantity) > 0) patch.quantity = form.quantity;
    if (form.typeId && form.typeId !== thing.typeId) patch.typeId = form.typeId;
    // Required fields hold back a save once the thing is past its draft (a capture is completed later).
    const fields = fieldsPatch(
      editFields.map((e) => e.field),
      values,
      form.fields,
      thing.lifecycle !== "draft",
    );
    if (!fields.ok) return setProblem({ key: fields.key, error: fields.error });
    setProblem(null);
    if (Object.keys(fields.patch).length) patch.fields = fields.patch;
    if (!Object.keys(patch).length) return;
    await queueThingUpdate(db, locationId, thing, patch);
    setDraft(null);
    setNote(t("thing.saved"));
  };

  return (
    <form
      className="stack"
      aria-label={t("thing.edit")}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>{t("thing.edit")}</h2>
      <FieldLists personListId="people" people={people} />
      <label>
        {t("thing.name")}
        <input value={form.name} onChange={(e) => setDraft({ ...form, name: e.target.value })} />
      </label>
      <label>
        {t("thing.quantity")}
        <input inputMode="decimal" value={form.quantity} onChange={(e) => setDraft({ ...form, quantity: e.target.value })} />
      </label>
      <label>
        {t("thing.type")}
        <select aria-label={t("thing.type")} value={form.typeId} onChange={(e) => setDraft({ ...form, typeId: e.target.value })}>
          {types
            .filter((ty) => (!ty.archivedAt && !ty.isGroup) || ty.id === thing.typeId)
            .map((ty) => (
              <option key={ty.id} value={ty.id}>
                {typeName(ty, t)}
              </option>
            ))}
        </select>
      </label>
      {editFields.map(({ field: f }) => (
        <FieldInput
          key={f.id}
          def={f}
          draft={fieldDraft(f.key)}
          onChange={(d) => setDraft({ ...form, fields: { ...form.fields, [f.key]: d } })}
          personListId="people"
          files={files}
          problem={problem?.key === f.key ? t(problem.error) : null}
        />
      ))}
      <button type="submit" className="primary">
        {t("thing.saveChanges")}
      </button>
      <Notice>{note}</Notice>
    </form>
  );
}
