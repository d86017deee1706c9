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
import { parseOptions } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { fieldLabel } from "../../ui/names.js";
import type { Via } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { AddField } from "./AddField.js";
import { Notice } from "../../ui/Notice.js";
import { baseOf, hasOptions, hasUnit, kindKey } from "./field-rules.js";

export interface ListedField {
  field: View<TypeFieldRow>;
  via: Via;
  /** The name of the type it comes from (inherited or group). */
  from?: string;
}

function EditField({ locationId, field, onDone }: { locationId: string; field: View<TypeFieldRow>; onDone: (note: string | null) => void }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [label, setLabel] = useState(field.label ?? "");
  const [unit, setUnit] = useState(field.unit ?? "");
  const [options, setOptions] = useState((field.options ?? []).join("\n"));
  const [required, setRequired] = useState(field.required);
  const [error, setError] = useState<string | null>(null);
  const name = fieldLabel(field, t);
  return (
    <form
      className="stack inline"
      aria-label={t("fields.editTitle", { label: name })}
      onSubmit={(e) => {
        e.preventDefault();
        const patch: { label?: string; unit?: string | null; options?: string[] | null; required?: boolean } = {};
        const l = label.trim();
        if (l && l !== (field.label ?? "")) patch.label = l;
        if (!l && field.label) return setError(t("fields.problem.label"));
        if (hasUnit(field.kind) && unit.trim() !== (field.unit ?? "")) patch.unit = unit.trim() || null;
        if (hasOptions(field.kind)) {
          const list = parseOptions(options);
          if (!list.length) return setError(t("fields.problem.options"));
          if (list.join("\n") !== (field.options ?? []).join("\n")) patch.options = list;
        }
        if (required !== field.required) patch.required = required;
        if (!Object.keys(patch).length) return onDone(null);
        void enqueueRegistry(db, { name: "type_field.update", locationId, args: { id: field.id, patch }, ...baseOf(field) }).then(() =>
          onDone(t("thing.saved")),
        );
      }}
    >
      <label>
        {t("fields.label")}
        <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={80} />
      </label>
      {hasUnit(field.kind) ? (
        <label>
          {t("fields.unit")}
          <input value={unit} onChange={(e) => setUnit(e.target.value)} maxLength={12} />
        </label>
      ) : null}
      {hasOptions(field.kind) ? (
        <label>
          {t("fields.options")}
          <textarea rows={4} value={options} onChange={(e) => setOptions(e.target.value)} />
        </label>
      ) : null}
      <label className="check">
        <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
        {t("fields.required")}
      </label>
      <Notice kind="error">{error}</Notice>
      <div className="actions">
        <button type="submit" className="primary">
          {t("fields.saveField")}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
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
          {fields.map(({ field: f, via, from }) => {
            const name = fieldLabel(f, t);
            const ownIndex = own.indexOf(f);
            const flags = [
              f.required ? t("fields.required") : null,
              f.repeatable ? t("fields.repeatable") : null,
              f.secret ? t("fields.secret") : null,
              f.unit ? t("fields.unitIs", { unit: f.unit }) : null,
              f.options?.length ? t("fields.optionCount", { count: f.options.length }) : null,
            ].filter(Boolean);
            return (
              <li key={f.id} className="field-item" aria-label={name}>
                <div className="field-head">
                  <strong>{name}</strong>
                  <span className="meta">
                    {t(kindKey(f.kind))} · <bdi dir="ltr">{f.key}</bdi>
                  </span>
                  <span className="meta source">
                    {via === "own" ? t("fields.via.own") : t(via === "inherited" ? "fields.via.inherited" : "fields.via.group", { name: from ?? "" })}
                  </span>
                  {flags.length ? <span className="meta">{flags.join(" · ")}</span> : null}
                  {f.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
                </div>
                {canManage && via === "own" ? (
                  <div className="actions">
                    <button
                      type="button"
                      aria-expanded={editing === f.id}
                      aria-label={t("fields.edit", { label: name })}
                      onClick={() => setEditing(editing === f.id ? null : f.id)}
                    >
                      {t("places.editShort")}
                    </button>
                    <button type="button" aria-label={t("fields.moveUp", { label: name })} disabled={ownIndex <= 0} onClick={() => move(ownIndex, -1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={t("fields.moveDown", { label: name })}
                      disabled={ownIndex < 0 || ownIndex >= own.length - 1}
                      onClick={() => move(ownIndex, 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={t("fields.archive", { label: name })}
                      onClick={() => {
                        if (!window.confirm(t("fields.archiveConfirm", { label: name }))) return;
                        void enqueueRegistry(db, { name: "type_field.archive", locationId, args: { id: f.id } }).then(() =>
                          setNote(t("fields.archived", { label: name })),
                        );
                      }}
                    >
                      {t("fields.archiveShort")}
                    </button>
                  </div>
                ) : null}
                {editing === f.id ? (
                  <EditField
                    locationId={locationId}
                    field={f}
                    onDone={(n) => {
                      setEditing(null);
                      setNote(n);
                    }}
                  />
                ) : null}
              </li>
            );
          })}
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
