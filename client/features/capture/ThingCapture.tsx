/**
 * The thing capture form: a template to start from, a photo, a name, a type, a place and the type's
 * custom fields. Its state lives in the screen (useThingCapture.ts).
 */
import type { PlaceRow, TypeRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { placeName, typeName } from "../../ui/names.js";
import { usePeople } from "../../ui/people.js";
import type { Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { toDraft } from "../../ui/field-values.js";
import { PhotoPicker } from "../photos/PhotoPicker.js";
import { FieldInput, FieldLists } from "../types/FieldInput.js";
import { StraightInSetting } from "./StraightInSetting.js";
import type { ThingCaptureForm } from "./useThingCapture.js";

interface Props {
  locationId: string;
  form: ThingCaptureForm;
  reg: Registries;
  types: TypeRow[];
  places: PlaceRow[];
}

export function ThingCapture({ locationId, form, reg, types, places }: Props) {
  const { t } = useI18n();
  const { db } = useReady();
  const people = usePeople(db, locationId);
  const { templateId, startFrom, fields, setFields, problem, name, setName, typeId, setTypeId, chosenPlace, setPlaceId, photo, setPhoto, note, defs, save } =
    form;
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="hint">{t("capture.help")}</p>
      <FieldLists personListId="people" people={people} />
      {reg.offered.length ? (
        <label>
          {t("templates.startFrom")}
          <select aria-label={t("templates.startFrom")} value={templateId} onChange={(e) => startFrom(e.target.value)}>
            <option value="">{t("templates.none")}</option>
            {reg.offered.map((tp) => (
              <option key={tp.id} value={tp.id}>
                {tp.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <PhotoPicker label={t("capture.photo")} photo={photo} onChange={setPhoto} />
      <label>
        {t("thing.name")}
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      </label>
      <label>
        {t("thing.type")}
        <select aria-label={t("thing.type")} value={typeId} onChange={(e) => setTypeId(e.target.value)}>
          <option value="">{t("type.thing")}</option>
          {types
            .filter((ty) => ty.builtinKey !== "thing" && !ty.archivedAt && !ty.isGroup)
            .map((ty) => (
              <option key={ty.id} value={ty.id}>
                {typeName(ty, t)}
              </option>
            ))}
        </select>
      </label>
      <label>
        {t("thing.place")}
        <select aria-label={t("thing.place")} value={chosenPlace} onChange={(e) => setPlaceId(e.target.value)}>
          {places.map((p) => (
            <option key={p.id} value={p.id}>
              {placeName(p, t)}
            </option>
          ))}
        </select>
      </label>
      {defs.map(({ field: f }) => (
        <FieldInput
          key={f.id}
          def={f}
          draft={fields[f.key] ?? toDraft(f, undefined)}
          onChange={(d) => setFields({ ...fields, [f.key]: d })}
          personListId="people"
          problem={problem?.key === f.key ? t(problem.error) : null}
        />
      ))}
      <button type="submit" className="primary">
        {t("capture.save")}
      </button>
      <Notice>{note}</Notice>
      <StraightInSetting locationId={locationId} />
    </form>
  );
}
