/**
 * The receipt choice of the Capture screen: photos of a receipt's pages (up to 10) and where its
 * things go, saved on the device as a `receipt.capture` op with the photos beside it; the pusher
 * uploads them and pushes the op when there is a connection. The server reads the receipt and it
 * waits in the inbox.
 */
import { useRef, useState } from "react";
import { v7 as uuidv7 } from "uuid";
import { MAX_RECEIPT_PAGES } from "../../../shared/receipts.js";
import type { PlaceRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeName } from "../../ui/names.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";

export function ReceiptCapture({ locationId, places, batchId }: { locationId: string; places: PlaceRow[]; batchId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const pagesRef = useRef<HTMLInputElement>(null);
  const [placeId, setPlaceId] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const unplaced = places.find((p) => p.isUnplaced);
  const chosenPlace = placeId || unplaced?.id || "";

  const save = async () => {
    const files = [...(pagesRef.current?.files ?? [])];
    if (!files.length) return setNote(t("capture.receiptNeedsPhoto"));
    if (files.length > MAX_RECEIPT_PAGES) return setNote(t("capture.receiptTooMany"));
    const id = uuidv7();
    const pageIds = files.map(() => uuidv7());
    const now = new Date().toISOString();
    await db.blobs.bulkPut(files.map((blob, i) => ({ id: pageIds[i]!, locationId, thingId: null, blob, state: "local" as const, createdAt: now })));
    await enqueue(
      db,
      {
        name: "receipt.capture",
        locationId,
        args: { id, batchId, photoFileIds: pageIds, ...(chosenPlace && chosenPlace !== unplaced?.id ? { placeId: chosenPlace } : {}) },
      },
      pageIds,
    );
    setNote(t("capture.receiptSaved", { count: files.length }));
    if (pagesRef.current) pagesRef.current.value = "";
  };

  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="hint">{t("capture.receiptHelp")}</p>
      <label>
        {t("capture.receiptPages")}
        <input ref={pagesRef} type="file" accept="image/*,application/pdf" capture="environment" multiple />
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
      <button type="submit" className="primary">
        {t("capture.receiptSave")}
      </button>
      <Notice>{note}</Notice>
    </form>
  );
}
