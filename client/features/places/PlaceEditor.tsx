/**
 * Renaming, moving and deleting one place (never the Unplaced area), each an op in the outbox
 * like creating a place. Delete is offered only for a place the device knows to be empty: the
 * server refuses the others, and saying why here spares people the refusal in their inbox.
 */
import { useState } from "react";
import { deleteRefusal } from "../../../sync/op-rules.js";
import type { PlaceRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { refusalKey } from "../../ui/refusal.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { PlaceDetails } from "./PlaceDetails.js";

export function PlaceEditor({
  locationId,
  place,
  places,
  tree,
  thingCount,
  note,
  onSaved,
  onClose,
}: {
  locationId: string;
  place: PlaceRow;
  places: PlaceRow[];
  /** Each place's child places (the key null: the top level). */
  tree: Map<string | null, PlaceRow[]>;
  thingCount: number;
  /** Kept by the screen: a moved place's editor is mounted again under its new parent. */
  note: string | null;
  onSaved: (note: string) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { db } = useReady();
  const [name, setName] = useState(place.name);
  const [parentId, setParentId] = useState(place.parentId ?? "");
  // Only server rows have a version; a place created on this device pushes without one (VE4).
  const base = place.rowVersion > 0 ? { baseVersion: place.rowVersion } : {};

  // Not the place itself, nor anything inside it, nor the Unplaced area.
  const inside = new Set<string>([place.id]);
  const stack = [place.id];
  while (stack.length) {
    for (const c of tree.get(stack.pop()!) ?? []) {
      if (inside.has(c.id)) continue;
      inside.add(c.id);
      stack.push(c.id);
    }
  }
  const targets = places.filter((p) => !p.isUnplaced && !inside.has(p.id)).sort((a, b) => a.name.localeCompare(b.name));

  // The rule the server applies (sync/op-rules.ts), over what this device shows.
  const refusal = deleteRefusal("place", { places: tree.get(place.id)?.length ?? 0, things: thingCount });
  const why = refusal ? t(refusalKey(refusal)) : null;
  const hintId = `place-delete-hint-${place.id}`;

  const update = (patch: { name: string } | { parentId: string | null }) =>
    enqueue(db, { name: "place.update", locationId, args: { id: place.id, patch }, ...base }).then(() => onSaved(t("thing.saved")));

  return (
    <section className="place-editor stack" aria-label={t("places.editTitle", { name: place.name })}>
      <h3>{t("places.editTitle", { name: place.name })}</h3>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const trimmed = name.trim();
          if (!trimmed || trimmed === place.name) return;
          void update({ name: trimmed });
        }}
      >
        <label>
          {t("places.newName")}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />
        </label>
        <button type="submit">{t("places.rename")}</button>
      </form>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (parentId === (place.parentId ?? "")) return;
          void update({ parentId: parentId || null });
        }}
      >
        <label>
          {t("places.moveTo")}
          <select aria-label={t("places.moveTo")} value={parentId} onChange={(e) => setParentId(e.target.value)}>
            <option value="">{t("places.top")}</option>
            {targets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("places.move")}</button>
      </form>
      <PlaceDetails locationId={locationId} place={place} onSaved={onSaved} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={!!why}
          aria-describedby={why ? hintId : undefined}
          onClick={() => {
            if (!window.confirm(t("places.deleteConfirm", { name: place.name }))) return;
            void enqueue(db, { name: "place.delete", locationId, args: { id: place.id }, ...base }).then(onClose);
          }}
        >
          {t("places.delete")}
        </button>
        <button type="button" onClick={onClose}>
          {t("places.close")}
        </button>
      </div>
      {why ? (
        <p className="hint" id={hintId}>
          {why}
        </p>
      ) : null}
      <Notice>{note}</Notice>
    </section>
  );
}
