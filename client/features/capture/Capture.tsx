/**
 * Capture: a photo (the phone's camera through a file input with `capture`), a name, a type and a
 * place, saved instantly on the device as a `thing.capture` op with the photo kept beside it; the
 * pusher uploads the photo and then pushes the op when there is a connection. Captures of one
 * sitting share a batch, which the inbox groups. A capture may start from a template offered in
 * this location (its type and values pre-filled, `templateId` sent), and the type's custom field
 * values follow the capture as a `thing.update` of the new thing's `fields` in the same outbox.
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import { enqueue } from "../../sync/outbox.js";
import { fieldsForCreate, fieldsPatch, toDraft, type FieldDraft, type FieldProblem } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { FieldInput, FieldLists } from "../types/FieldInput.js";
import { Notice } from "../../ui/Notice.js";
import { PhotoPicker } from "../photos/PhotoPicker.js";
import { ReceiptCapture } from "./ReceiptCapture.js";
import { StraightInSetting } from "./StraightInSetting.js";
import { Shell } from "../../ui/Shell.js";
import { usePeople } from "../../ui/people.js";
import { effectiveFields, useRegistries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { placeName, typeName } from "../../ui/names.js";
import { templatePrefill } from "../../ui/template-prefill.js";
import { useLocationScreen } from "../../ui/use-location.js";

export function CaptureScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const reg = useRegistries(db, locationId);
  const people = usePeople(db, locationId);
  const [batchId] = useState(() => uuidv7());
  const [templateId, setTemplateId] = useState("");
  const [fields, setFields] = useState<Record<string, FieldDraft>>({});
  const [problem, setProblem] = useState<{ key: string; error: FieldProblem } | null>(null);
  const [name, setName] = useState("");
  const [typeId, setTypeId] = useState("");
  const [placeId, setPlaceId] = useState("");
  const [count, setCount] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const [kind, setKind] = useState<"thing" | "receipt">("thing");
  const [photo, setPhoto] = useState<File | null>(null);

  if (!data || !reg) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const unplaced = data.places.find((p) => p.isUnplaced);
  const chosenPlace = placeId || unplaced?.id || "";
  const defs = effectiveFields(typeId, reg.typesById, reg.fields);
  const template = reg.offered.find((tp) => tp.id === templateId);

  const startFrom = (id: string) => {
    setTemplateId(id);
    const tp = reg.offered.find((x) => x.id === id);
    if (!tp) return;
    const prefill = templatePrefill(tp.payload);
    setTypeId(tp.typeId);
    if (prefill.name) setName(prefill.name);
    const next: Record<string, FieldDraft> = {};
    for (const e of effectiveFields(tp.typeId, reg.typesById, reg.fields))
      if (prefill.fields[e.field.key] !== undefined) next[e.field.key] = toDraft(e.field, prefill.fields[e.field.key]);
    setFields(next);
  };

  const save = async () => {
    // From a template, the server fills the template's values itself: send only what differs
    // (null for a value the person cleared); otherwise every value entered.
    const values = template
      ? fieldsPatch(
          defs.map((e) => e.field),
          templatePrefill(template.payload).fields,
          fields,
          false,
        )
      : fieldsForCreate(
          defs.map((e) => e.field),
          fields,
        );
    if (!values.ok) return setProblem({ key: values.key, error: values.error });
    const changed = "patch" in values ? values.patch : values.fields;
    setProblem(null);
    const id = uuidv7();
    const file = photo;
    const photoId = file ? uuidv7() : undefined;
    if (file && photoId) {
      await db.blobs.put({ id: photoId, locationId, thingId: id, blob: file, state: "local", createdAt: new Date().toISOString() });
    }
    const trimmed = name.trim();
    await enqueue(
      db,
      {
        name: "thing.capture",
        locationId,
        args: {
          id,
          batchId,
          ...(trimmed ? { name: trimmed } : {}),
          ...(typeId ? { typeId } : {}),
          ...(chosenPlace ? { placeId: chosenPlace } : {}),
          ...(photoId ? { photoFileIds: [photoId] } : {}),
          ...(template ? { templateId: template.id } : {}),
        },
      },
      photoId ? [photoId] : [],
    );
    // The values go with the next op: thing.capture takes none (the helpers' contract).
    if (Object.keys(changed).length) await enqueue(db, { name: "thing.update", locationId, args: { id, patch: { fields: changed } } });
    setCount((c) => c + 1);
    setNote(t("capture.saved", { name: trimmed || t("common.unnamed"), count: count + 1 }));
    setName("");
    setFields({});
    setTemplateId("");
    setPhoto(null);
  };

  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("capture.title")}</h1>
      {data.canEdit ? (
        <fieldset className="inline" style={{ border: 0, padding: 0, margin: 0, display: "flex", flexWrap: "wrap", gap: "1rem" }}>
          <legend>{t("capture.kind")}</legend>
          {(["thing", "receipt"] as const).map((k) => (
            <label key={k} style={{ display: "flex", gap: "0.25rem", alignItems: "center" }}>
              <input type="radio" name="capture-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              {t(`capture.kind.${k}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {data.canEdit && kind === "receipt" ? (
        <ReceiptCapture locationId={locationId} places={data.places} batchId={batchId} />
      ) : data.canEdit ? (
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
              {data.types
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
              {data.places.map((p) => (
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
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
    </Shell>
  );
}
