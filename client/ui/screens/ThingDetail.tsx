/**
 * One thing: what it is and where, editing (an op with the rowVersion seen, so a concurrent edit
 * of the same field becomes a sync_drop instead of silently winning), moving, deleting, photos
 * taken on this device, and its history with undo (history needs the network).
 */
import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { HistoryEntry } from "../../../shared/history.js";
import type { ThingPatch } from "../../../shared/things.js";
import { api } from "../../sync/api.js";
import { enqueue } from "../../sync/outbox.js";
import { useLive } from "../data.js";
import { useI18n } from "../i18n/i18n.js";
import { Notice } from "../parts/Notice.js";
import { Shell } from "../parts/Shell.js";
import { Link, navigate } from "../router.js";
import { useReady } from "../session.js";
import { thingName, typeName, wherePath } from "../names.js";
import { errorText } from "./SignIn.js";
import { useLocationScreen } from "./use-location.js";

function Photos({ thingId }: { thingId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const blobs = useLive(() => db.blobs.filter((b) => b.thingId === thingId).toArray(), [db, thingId]);
  const [urls, setUrls] = useState<string[]>([]);
  useEffect(() => {
    const made = (blobs ?? []).map((b) => URL.createObjectURL(b.blob));
    setUrls(made);
    return () => made.forEach((u) => URL.revokeObjectURL(u));
  }, [blobs]);
  if (!urls.length) return null;
  return (
    <section aria-label={t("thing.photos")}>
      <h2>{t("thing.photos")}</h2>
      <div className="photos">
        {urls.map((u, i) => (
          <img key={u} src={u} alt={`${t("thing.photos")} ${i + 1}`} />
        ))}
      </div>
    </section>
  );
}

function History({ thingId, version, canEdit }: { thingId: string; version: number; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const [items, setItems] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () =>
    api<{ items: HistoryEntry[] }>("GET", `/api/v1/things/${thingId}/history`).then(
      (r) => {
        setItems(r.items);
        setError(null);
      },
      () => setError(t("thing.historyOffline")),
    );
  // Again whenever the server's version of the thing changes (a shape brought a new change).
  useEffect(() => {
    void load();
  }, [thingId, version]);
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">{t("thing.history")}</h2>
      <Notice kind="error">{error}</Notice>
      <Notice>{note}</Notice>
      {items ? (
        <ol className="history">
          {items.map((h) => {
            const undoable = canEdit && h.undoable_until && Date.parse(h.undoable_until) > Date.now();
            return (
              <li key={h.id}>
                <span>{h.summary}</span> <span className="meta">{`${h.actor.displayName} · ${dateTime(h.at)}`}</span>
                {undoable ? (
                  <button
                    type="button"
                    aria-label={`${t("thing.undo")}: ${h.summary}`}
                    onClick={() =>
                      void api("POST", `/api/v1/history/${h.id}/undo`).then(
                        () => {
                          setNote(t("thing.undone"));
                          void load();
                        },
                        (err: unknown) => setError(errorText(err)),
                      )
                    }
                  >
                    {t("thing.undo")}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}

export function ThingDetailScreen({ locationId, thingId }: { locationId: string; thingId: string }) {
  const { t, num } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const thing = data?.things.find((th) => th.id === thingId);
  const [draft, setDraft] = useState<{ name: string; quantity: string; typeId: string } | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const where = useMemo(() => {
    if (!data || !thing) return "";
    return wherePath(thing, new Map(data.places.map((p) => [p.id, p])), new Map(data.things.map((th) => [th.id, th])), t);
  }, [data, thing, t]);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      {body}
    </Shell>
  );
  if (!thing) return shell(<p>{t("thing.notFound")}</p>);
  const type = data.types.find((ty) => ty.id === thing.typeId);
  // Quantities are decimal strings ("1.000" from the server); people type "1".
  const form = draft ?? { name: thing.name ?? "", quantity: String(Number(thing.quantity)), typeId: thing.typeId ?? "" };
  // Only server rows have a version; a thing created on this device pushes without one (VE4).
  const base = thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {};

  const save = async () => {
    const patch: ThingPatch = {};
    if (form.name.trim() !== (thing.name ?? "")) patch.name = form.name.trim() || null;
    if (Number(form.quantity) !== Number(thing.quantity) && Number(form.quantity) > 0) patch.quantity = form.quantity;
    if (form.typeId && form.typeId !== thing.typeId) patch.typeId = form.typeId;
    if (!Object.keys(patch).length) return;
    await enqueue(db, { name: "thing.update", locationId, args: { id: thing.id, patch }, ...base });
    setDraft(null);
    setNote(t("thing.saved"));
  };

  return shell(
    <>
      <h1>{thingName(thing, t)}</h1>
      {thing.pending ? <p className="pending">{t("common.notSynced")}</p> : null}
      <dl className="facts">
        <dt>{t("thing.type")}</dt>
        <dd>{typeName(type, t)}</dd>
        <dt>{t("thing.quantity")}</dt>
        <dd>{num(Number(thing.quantity))}</dd>
        <dt>{t("thing.where")}</dt>
        <dd>{where}</dd>
        <dt>{t("thing.lifecycle")}</dt>
        <dd>{t(`lifecycle.${thing.lifecycle}`)}</dd>
      </dl>
      <Photos thingId={thing.id} />
      {data.canEdit ? (
        <>
          <form
            className="stack"
            aria-label={t("thing.edit")}
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <h2>{t("thing.edit")}</h2>
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
                {data.types.map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {typeName(ty, t)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary">
              {t("thing.saveChanges")}
            </button>
            <Notice>{note}</Notice>
          </form>
          <div className="actions">
            <Link to={`/l/${locationId}/things/${thing.id}/move`} className="button">
              {t("thing.move")}
            </Link>
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (!window.confirm(t("thing.deleteConfirm"))) return;
                void enqueue(db, { name: "thing.delete", locationId, args: { id: thing.id }, ...base }).then(() => navigate(`/l/${locationId}/things`));
              }}
            >
              {t("thing.delete")}
            </button>
          </div>
        </>
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
      <History thingId={thing.id} version={thing.rowVersion} canEdit={data.canEdit} />
    </>,
  );
}
