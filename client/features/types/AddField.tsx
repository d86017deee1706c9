/** Adding a field to a type or a place kind: label (the key is made from it), kind and its options, as an op in the outbox. */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import { FIELD_KINDS, type FieldKind } from "../../../shared/fields.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { keyFromLabel, parseOptions } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { KEY, canRepeat, hasOptions, hasUnit, kindKey } from "./field-rules.js";

export function AddField({
  locationId,
  owner,
  taken,
  nextSort,
  isOwner,
  onAdded,
}: {
  locationId: string;
  owner: { typeId: string } | { placeKindId: string };
  taken: string[];
  nextSort: number;
  isOwner: boolean;
  onAdded: (note: string) => void;
}) {
  const { t } = useI18n();
  const { db } = useReady();
  const [label, setLabel] = useState("");
  const [key, setKey] = useState<string | null>(null);
  const [kind, setKind] = useState<FieldKind>("text");
  const [unit, setUnit] = useState("");
  const [options, setOptions] = useState("");
  const [repeatable, setRepeatable] = useState(false);
  const [required, setRequired] = useState(false);
  const [secret, setSecret] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shownKey = key ?? (label.trim() ? keyFromLabel(label, taken) : "");

  const submit = async () => {
    const l = label.trim();
    if (!l || l.length > 80) return setError(t("fields.problem.label"));
    if (!KEY.test(shownKey)) return setError(t("fields.problem.key"));
    if (taken.includes(shownKey)) return setError(t("fields.problem.keyTaken", { key: shownKey }));
    const list = hasOptions(kind) ? parseOptions(options) : [];
    if (hasOptions(kind) && !list.length) return setError(t("fields.problem.options"));
    setError(null);
    await enqueueRegistry(db, {
      name: "type_field.create",
      locationId,
      args: {
        id: uuidv7(),
        ...owner,
        key: shownKey,
        label: l,
        kind,
        ...(hasUnit(kind) && unit.trim() ? { unit: unit.trim().slice(0, 12) } : {}),
        ...(list.length ? { options: list } : {}),
        ...(repeatable && canRepeat(kind) ? { repeatable } : {}),
        ...(required ? { required } : {}),
        ...(secret && isOwner ? { secret } : {}),
        sort: nextSort,
      },
    });
    setLabel("");
    setKey(null);
    setUnit("");
    setOptions("");
    setRepeatable(false);
    setRequired(false);
    setSecret(false);
    onAdded(t("fields.added", { label: l }));
  };

  return (
    <form
      className="stack inline"
      aria-label={t("fields.add")}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{t("fields.add")}</h3>
      <label>
        {t("fields.label")}
        <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={80} />
      </label>
      <label>
        {t("fields.key")}
        <input dir="ltr" value={shownKey} onChange={(e) => setKey(e.target.value)} maxLength={40} autoCapitalize="none" spellCheck={false} />
        <span className="hint">{t("fields.keyHint")}</span>
      </label>
      <label>
        {t("fields.kind")}
        <select aria-label={t("fields.kind")} value={kind} onChange={(e) => setKind(e.target.value as FieldKind)}>
          {FIELD_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(kindKey(k))}
            </option>
          ))}
        </select>
      </label>
      {hasUnit(kind) ? (
        <label>
          {t("fields.unit")}
          <input value={unit} onChange={(e) => setUnit(e.target.value)} maxLength={12} />
        </label>
      ) : null}
      {hasOptions(kind) ? (
        <label>
          {t("fields.options")}
          <textarea rows={4} value={options} onChange={(e) => setOptions(e.target.value)} />
          <span className="hint">{t("fields.optionsHint")}</span>
        </label>
      ) : null}
      <div className="checks">
        {canRepeat(kind) ? (
          <label className="check">
            <input type="checkbox" checked={repeatable} onChange={(e) => setRepeatable(e.target.checked)} />
            {t("fields.repeatable")}
          </label>
        ) : null}
        <label className="check">
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
          {t("fields.required")}
        </label>
        {isOwner ? (
          <label className="check">
            <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} />
            {t("fields.secret")}
          </label>
        ) : null}
      </div>
      {!isOwner ? <p className="hint">{t("fields.secretOwnerOnly")}</p> : null}
      <Notice kind="error">{error}</Notice>
      <button type="submit" className="primary">
        {t("fields.addButton")}
      </button>
    </form>
  );
}
