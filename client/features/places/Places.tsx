/** The place tree of a location, with how many things sit in each place; adding, renaming, moving and deleting places. */
import { useMemo, useState } from "react";
import { formatCode } from "../../../shared/codes.js";
import type { PlaceRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { v7 as uuidv7 } from "uuid";
import { useI18n } from "../../ui/i18n/i18n.js";
import { FirstSyncProgress } from "../../ui/FirstSync.js";
import { Notice } from "../../ui/Notice.js";
import { ShareLinks } from "../share/ShareLink.js";
import { PlaceEditor } from "./PlaceEditor.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { placeName } from "../../ui/names.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

export function PlacesScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const [name, setName] = useState("");
  const [parentId, setParentId] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [edited, setEdited] = useState<string | null>(null);

  const { children, counts } = useMemo(() => {
    const children = new Map<string | null, PlaceRow[]>();
    for (const p of data?.places ?? []) {
      const key = p.parentId ?? null;
      children.set(key, [...(children.get(key) ?? []), p]);
    }
    for (const list of children.values()) list.sort((a, b) => Number(b.isUnplaced) - Number(a.isUnplaced) || a.name.localeCompare(b.name));
    const counts = new Map<string, number>();
    for (const th of data?.things ?? []) if (th.placeId) counts.set(th.placeId, (counts.get(th.placeId) ?? 0) + 1);
    return { children, counts };
  }, [data]);

  const tree = (parent: string | null) => {
    const list = children.get(parent);
    if (!list?.length) return null;
    return (
      <ul className={parent ? "tree-branch" : "tree"}>
        {list.map((p) => (
          <li key={p.id}>
            <div className="tree-row">
              <Link to={paths.things({ locationId }, { place: p.id })}>
                {placeName(p, t)}{" "}
                <span className="meta">
                  {t("places.count", { count: counts.get(p.id) ?? 0 })}
                  {p.shortCode ? ` · ${formatCode(p.shortCode)}` : ""}
                </span>
              </Link>
              {data?.canEdit && !p.isUnplaced ? (
                <button
                  type="button"
                  className="link"
                  aria-label={t("places.edit", { name: p.name })}
                  aria-expanded={editing === p.id}
                  onClick={() => (setEditing(editing === p.id ? null : p.id), setEdited(null))}
                >
                  {t("places.editShort")}
                </button>
              ) : null}
            </div>
            {data?.canEdit && editing === p.id && !p.isUnplaced ? (
              <PlaceEditor
                locationId={locationId}
                place={p}
                places={data.places}
                tree={children}
                thingCount={counts.get(p.id) ?? 0}
                note={edited}
                onSaved={setEdited}
                onClose={() => setEditing(null)}
              />
            ) : null}
            {data?.canEdit && editing === p.id && !p.isUnplaced ? <ShareLinks locationId={locationId} scope="place" targetId={p.id} canShare /> : null}
            {tree(p.id)}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inbox.length ?? 0}>
      <h1>{t("places.title")}</h1>
      <p className="actions">
        <Link to={paths.moves({ locationId })}>{t("moves.link")}</Link>
      </p>
      <FirstSyncProgress />
      {tree(null)}
      {data?.canEdit ? (
        <form
          className="stack inline"
          onSubmit={(e) => {
            e.preventDefault();
            const trimmed = name.trim();
            if (!trimmed) return;
            void enqueue(db, { name: "place.create", locationId, args: { id: uuidv7(), name: trimmed, ...(parentId ? { parentId } : {}) } }).then(() => {
              setSaved(trimmed);
              setName("");
              // The next place starts at the top again: keeping the last parent put a second place
              // silently inside the first.
              setParentId("");
            });
          }}
        >
          <h2>{t("places.add")}</h2>
          <label>
            {t("places.name")}
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label>
            {t("places.parent")}
            <select aria-label={t("places.parent")} value={parentId} onChange={(e) => setParentId(e.target.value)}>
              <option value="">{t("places.top")}</option>
              {(data.places ?? [])
                .filter((p) => !p.isUnplaced)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit">{t("places.add")}</button>
          <Notice>{saved ? `${saved}: ${t("thing.saved")}` : null}</Notice>
        </form>
      ) : null}
    </Shell>
  );
}
