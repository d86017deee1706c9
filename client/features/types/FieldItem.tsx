/**
 * One field in the editor's list: its name, kind, key, where it comes from and its flags, and, for
 * an own field of someone who manages the registries, edit, reorder and archive.
 */
import type { TypeFieldRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { fieldLabel } from "../../ui/names.js";
import type { Via } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { EditField } from "./EditField.js";
import { kindKey } from "./field-rules.js";

interface Props {
  locationId: string;
  field: View<TypeFieldRow>;
  via: Via;
  from: string | undefined;
  canManage: boolean;
  /** Its place among the own fields (-1: not own), and how many there are, for the move buttons. */
  ownIndex: number;
  ownCount: number;
  editing: boolean;
  onToggleEdit: () => void;
  onEdited: (note: string | null) => void;
  onMove: (by: -1 | 1) => void;
  onNote: (note: string) => void;
}

export function FieldItem({ locationId, field: f, via, from, canManage, ownIndex, ownCount, editing, onToggleEdit, onEdited, onMove, onNote }: Props) {
  const { t } = useI18n();
  const { db } = useReady();
  const name = fieldLabel(f, t);
  const flags = [
    f.required ? t("fields.required") : null,
    f.repeatable ? t("fields.repeatable") : null,
    f.secret ? t("fields.secret") : null,
    f.unit ? t("fields.unitIs", { unit: f.unit }) : null,
    f.options?.length ? t("fields.optionCount", { count: f.options.length }) : null,
  ].filter(Boolean);
  return (
    <li className="field-item" aria-label={name}>
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
          <button type="button" aria-expanded={editing} aria-label={t("fields.edit", { label: name })} onClick={onToggleEdit}>
            {t("places.editShort")}
          </button>
          <button type="button" aria-label={t("fields.moveUp", { label: name })} disabled={ownIndex <= 0} onClick={() => onMove(-1)}>
            ↑
          </button>
          <button
            type="button"
            aria-label={t("fields.moveDown", { label: name })}
            disabled={ownIndex < 0 || ownIndex >= ownCount - 1}
            onClick={() => onMove(1)}
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
                onNote(t("fields.archived", { label: name })),
              );
            }}
          >
            {t("fields.archiveShort")}
          </button>
        </div>
      ) : null}
      {editing ? <EditField locationId={locationId} field={f} onDone={onEdited} /> : null}
    </li>
  );
}
