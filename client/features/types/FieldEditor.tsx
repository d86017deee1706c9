/**
 * The fields of one type or place kind in the editor: each with its kind, key and where it comes
 * from (own, inherited from a parent type, from a group), and, for owners and admins, adding a
 * field, editing an own field's label, unit, options, required and order, and archiving it. Every
 * change is an op in the outbox (type_field.create / update / archive), so it works offline.
 */
import { useState } from "react";
import type { TypeFieldRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import type { Via } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { AddField } from "./AddField.js";
import { FieldItem } from "./FieldItem.js";
import { Notice } from "../../ui/Notice.js";
import { baseOf } from "./field-rules.js";

export interface ListedField {
  field: View<TypeFieldRow>;
  via: Via;
  /** The name of the type it comes from (inherited or group). */
  from?: string;
}

export function FieldEditor({
  locationId,
  owner,
  fields,
  archived,
  canManage,
  isOwner,
}: {
  locationId: string;
  owner: { typeId: string } | { placeKindId: string };
  /** The fields shown, in order (own, inherited and group ones). */
  fields: ListedField[];
  /** The owner's own archived fields (their keys stay taken). */
  archived: View<TypeFieldRow>[];
  canManage: boolean;
  isOwner: boolean;
}) {
  const { t } = useI18n();
  const { db } = useReady();
  const [editing, setEditing] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const own = fields.filter((f) => f.via === "own").map((f) => f.field);
  const nextSort = own.reduce((m, f) => Math.max(m, f.sort), 0) + 10;

  /** Swaps the places of two own fields (their sorts, made distinct when equal). */
  const move = (i: number, by: -1 | 1) => {
    const order = [...own];
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j]!, order[i]!];
    const writes = order.flatMap((f, n) => ((n + 1) * 10 !== f.sort ? [{ f, sort: (n + 1) * 10 }] : []));
    void Promise.all(
      writes.map(({ f, sort }) => enqueueRegistry(db, { name: "type_field.update", locationId, args: { id: f.id, patch: { sort } }, ...baseOf(f) })),
    ).then(() => setNote(t("thing.saved")));
  };

  return (
    <section aria-label={t("fields.title")}>
      <h3>{t("fields.title")}</h3>
      {fields.length ? (
        <ul className="list fields-list">
          {fields.map(({ field: f, via, from }) => (
            <FieldItem
              key={f.id}
              locationId={locationId}
              field={f}
              via={via}
              from={from}
              canManage={canManage}
              ownIndex={own.indexOf(f)}
              ownCount={own.length}
              editing={editing === f.id}
              onToggleEdit={() => setEditing(editing === f.id ? null : f.id)}
              onEdited={(n) => {
                setEditing(null);
                setNote(n);
              }}
              onMove={(by) => move(own.indexOf(f), by)}
              onNote={setNote}
            />
          ))}
        </ul>
      ) : (
        <p className="hint">{t("fields.none")}</p>
      )}
      {archived.length ? <p className="meta">{t("fields.archivedCount", { count: archived.length })}</p> : null}
      <Notice>{note}</Notice>
      {canManage ? (
        <AddField
          locationId={locationId}
          owner={owner}
          taken={[...new Set([...fields.map((f) => f.field.key), ...archived.map((f) => f.key)])]}
          nextSort={nextSort}
          isOwner={isOwner}
          onAdded={setNote}
        />
      ) : null}
    </section>
  );
}
