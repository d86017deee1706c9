/**
 * A thing's photos on its page: the gallery of every photo (thumbnails; full size when one is
 * opened), and for those who may write, adding a photo (the camera on a phone, a preview first),
 * choosing the cover and removing one. Each change is an op (../../ops/things/thing.photo.*.ts), so it works
 * offline and shows at once; a role that cannot write sees no controls and is refused on the device.
 */
import { useState, type FormEvent } from "react";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import type { ThingRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { PhotoChangeRefused } from "../../ops/things/photos.js";
import { queuePhotoAdd, queuePhotoChange } from "../../ops/things/queue.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { PhotoImage } from "./PhotoImage.js";
import { PhotoPicker } from "./PhotoPicker.js";
import "./photos.css";

export function ThingPhotos({ thing, role }: { thing: View<ThingRow>; role: Role | undefined }) {
  const { t, num } = useI18n();
  const { db } = useReady();
  const [open, setOpen] = useState<string | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const [asCover, setAsCover] = useState(false);
  const [note, setNote] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  const canEdit = !!role && roleAtLeast(role, "member");
  const photos = thing.photoFileIds ?? [];
  const name = thingName(thing, t);

  const run = (change: Promise<unknown>, done: MessageKey) =>
    change.then(
      () => setNote({ kind: "info", text: t(done) }),
      (err: unknown) => setNote({ kind: "error", text: err instanceof PhotoChangeRefused ? t("photos.refused") : String(err) }),
    );
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!photo) return;
    void run(
      queuePhotoAdd(db, role, thing, photo, asCover).then(() => {
        setPhoto(null);
        setAsCover(false);
      }),
      "photos.added",
    );
  };
  const remove = (fileId: string) => {
    if (!window.confirm(t("photos.removeConfirm"))) return;
    if (open === fileId) setOpen(null);
    void run(queuePhotoChange(db, role, thing, "thing.photo.remove", fileId), "photos.removed");
  };

  return (
    <section className="thing-photos" aria-label={t("photos.title")}>
      <h2>{t("photos.title")}</h2>
      {photos.length ? (
        <ul className="photo-grid">
          {photos.map((fileId, i) => {
            const n = t("photos.photoN", { n: num(i + 1) });
            return (
              <li key={fileId}>
                <button
                  type="button"
                  className="photo-open"
                  aria-label={t("photos.open", { n: num(i + 1) })}
                  aria-expanded={open === fileId}
                  onClick={() => setOpen(open === fileId ? null : fileId)}
                >
                  <PhotoImage fileId={fileId} size="thumb" alt="" />
                </button>
                {fileId === thing.coverFileId ? <span className="badge">{t("photos.cover")}</span> : null}
                {canEdit ? (
                  <span className="photo-actions">
                    {fileId !== thing.coverFileId ? (
                      <button
                        type="button"
                        aria-label={`${t("photos.makeCover")}: ${n}`}
                        onClick={() => void run(queuePhotoChange(db, role, thing, "thing.photo.cover", fileId), "photos.coverChosen")}
                      >
                        {t("photos.makeCover")}
                      </button>
                    ) : null}
                    <button type="button" className="danger" aria-label={`${t("photos.remove")}: ${n}`} onClick={() => remove(fileId)}>
                      {t("photos.remove")}
                    </button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="meta">{t("photos.none")}</p>
      )}
      {open && photos.includes(open) ? (
        <figure className="photo-full">
          <PhotoImage fileId={open} size="full" alt={t("photos.full", { n: num(photos.indexOf(open) + 1), name })} className="full" />
          <button type="button" onClick={() => setOpen(null)}>
            {t("photos.close")}
          </button>
        </figure>
      ) : null}
      {canEdit ? (
        <form className="stack" onSubmit={add}>
          <PhotoPicker label={t("photos.add")} photo={photo} onChange={setPhoto} />
          {photo && photos.length ? (
            <label className="check">
              <input type="checkbox" checked={asCover} onChange={(e) => setAsCover(e.target.checked)} />
              {t("photos.asCover")}
            </label>
          ) : null}
          <button type="submit" className="primary" disabled={!photo}>
            {t("photos.addButton")}
          </button>
        </form>
      ) : null}
      <Notice kind={note?.kind ?? "info"}>{note?.text}</Notice>
    </section>
  );
}
