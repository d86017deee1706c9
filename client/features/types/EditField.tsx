/**
 * The edit form of one own field: label, unit, options and required. Only what changed goes into
 * the type_field.update op, against the field as it was read (baseOf), so a concurrent edit of
 * another property does not conflict.
 */
import { useState } from "react";
import type { TypeFieldRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { parseOptions } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { fieldLabel } from "../../ui/names.js";
import { Notice } from "../../ui/Notice.js";
import { useReady } from "../../ui/session.js";
import { baseOf, hasOptions, hasUnit } from "./field-rules.js";

export function EditField({ locationId, field, onDone }: { locationId: string; field: View<TypeFieldRow>; onDone: (note: string | null) => void }) {
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
