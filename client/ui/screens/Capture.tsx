/**
 * Capture: a photo (the phone's camera through a file input with `capture`), a name, a type and a
 * place, saved instantly on the device as a `thing.capture` op with the photo kept beside it; the
 * pusher uploads the photo and then pushes the op when there is a connection. Captures of one
 * sitting share a batch, which the inbox groups.
 */
import { useRef, useState } from "react";
import { v7 as uuidv7 } from "uuid";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../i18n/i18n.js";
import { Notice } from "../parts/Notice.js";
import { Shell } from "../parts/Shell.js";
import { useReady } from "../session.js";
import { placeName, typeName } from "../names.js";
import { useLocationScreen } from "./use-location.js";

export function CaptureScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const [batchId] = useState(() => uuidv7());
  const [name, setName] = useState("");
  const [typeId, setTypeId] = useState("");
  const [placeId, setPlaceId] = useState("");
  const [count, setCount] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const photoRef = useRef<HTMLInputElement>(null);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const unplaced = data.places.find((p) => p.isUnplaced);
  const chosenPlace = placeId || unplaced?.id || "";

  const save = async () => {
    const id = uuidv7();
    const file = photoRef.current?.files?.[0];
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
        },
      },
      photoId ? [photoId] : [],
    );
    setCount((c) => c + 1);
    setNote(t("capture.saved", { name: trimmed || t("common.unnamed"), count: count + 1 }));
    setName("");
    if (photoRef.current) photoRef.current.value = "";
  };

  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("capture.title")}</h1>
      {data.canEdit ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <p className="hint">{t("capture.help")}</p>
          <label>
            {t("capture.photo")}
            <input ref={photoRef} type="file" accept="image/*" capture="environment" />
          </label>
          <label>
            {t("thing.name")}
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </label>
          <label>
            {t("thing.type")}
            <select aria-label={t("thing.type")} value={typeId} onChange={(e) => setTypeId(e.target.value)}>
              <option value="">{t("type.thing")}</option>
              {data.types
                .filter((ty) => ty.builtinKey !== "thing")
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
          <button type="submit" className="primary">
            {t("capture.save")}
          </button>
          <Notice>{note}</Notice>
        </form>
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
    </Shell>
  );
}
