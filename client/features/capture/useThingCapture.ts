/**
 * The state of the thing capture form, held by the capture screen so that switching to a receipt
 * and back keeps what was typed and the count of this sitting. Saving writes the photo beside a
 * `thing.capture` op and, when values were entered, a `thing.update` of the new thing's fields.
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import { enqueue } from "../../sync/outbox.js";
import { fieldsForCreate, fieldsPatch, toDraft, type FieldDraft, type FieldProblem } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { effectiveFields, type Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { templatePrefill } from "../../ui/template-prefill.js";

/** `unplacedId`: the place a capture goes to when none is chosen. */
export function useThingCapture(locationId: string, batchId: string, reg: Registries | undefined, unplacedId: string | undefined) {
  const { t } = useI18n();
  const { db } = useReady();
  const [templateId, setTemplateId] = useState("");
  const [fields, setFields] = useState<Record<string, FieldDraft>>({});
  const [problem, setProblem] = useState<{ key: string; error: FieldProblem } | null>(null);
  const [name, setName] = useState("");
  const [typeId, setTypeId] = useState("");
  const [placeId, setPlaceId] = useState("");
  const [count, setCount] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const chosenPlace = placeId || unplacedId || "";
  const defs = reg ? effectiveFields(typeId, reg.typesById, reg.fields) : [];
  const template = reg?.offered.find((tp) => tp.id === templateId);

  const startFrom = (id: string) => {
    setTemplateId(id);
    const tp = reg?.offered.find((x) => x.id === id);
    if (!reg || !tp) return;
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

  return {
    templateId,
    startFrom,
    fields,
    setFields,
    problem,
    name,
    setName,
    typeId,
    setTypeId,
    chosenPlace,
    setPlaceId,
    photo,
    setPhoto,
    note,
    defs,
    save,
  };
}

export type ThingCaptureForm = ReturnType<typeof useThingCapture>;
