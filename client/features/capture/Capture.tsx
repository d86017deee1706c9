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
import { useI18n } from "../../ui/i18n/i18n.js";
import { ReceiptCapture } from "./ReceiptCapture.js";
import { Shell } from "../../ui/Shell.js";
import { useRegistries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { ThingCapture } from "./ThingCapture.js";
import { useThingCapture } from "./useThingCapture.js";

export function CaptureScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const reg = useRegistries(db, locationId);
  const [batchId] = useState(() => uuidv7());
  const form = useThingCapture(locationId, batchId, reg, data?.places.find((p) => p.isUnplaced)?.id);
  const [kind, setKind] = useState<"thing" | "receipt">("thing");

  if (!data || !reg) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
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
        <ThingCapture locationId={locationId} form={form} reg={reg} types={data.types} places={data.places} />
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
    </Shell>
  );
}
