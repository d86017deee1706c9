/**
 * The input of one custom field, by kind (field-values.ts turns what it holds into the value the
 * server checks): a date picker, a select, checkboxes for multi_select, amount and currency for
 * money, member names suggested for person, one of the thing's files for file. A repeatable field
 * has rows to add and remove.
 */
import { isRepeated, type Draft, type FieldDraft } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { fieldLabel } from "../../ui/names.js";
import { CURRENCIES, CURRENCY_LIST_ID, FieldOne, type Def, type FileChoice } from "./FieldOne.js";

/** One field's inputs with its label (required fields marked), or its hint when it cannot be filled here. */
export function FieldInput({
  def,
  draft,
  onChange,
  personListId,
  files,
  problem,
}: {
  def: Def;
  draft: FieldDraft;
  onChange: (d: FieldDraft) => void;
  personListId?: string | undefined;
  /** The thing's files a file field may name; undefined where none can be chosen (Capture). */
  files?: FileChoice[] | undefined;
  problem?: string | null | undefined;
}) {
  const { t } = useI18n();
  const label = fieldLabel(def, t);
  const shown = `${label}${def.unit && (def.kind === "number" || def.kind === "money") ? ` (${def.unit})` : ""}`;
  const marker = def.required ? (
    <span className="required" aria-hidden="true">
      {" *"}
    </span>
  ) : null;
  const problemId = `field-problem-${def.id}`;
  const problemText = problem ? (
    <span className="field-problem" id={problemId} role="alert">
      {problem}
    </span>
  ) : null;

  if (def.kind === "file" && (!files || files.length === 0) && !(typeof draft === "string" && draft)) {
    return (
      <p className="hint field-hint">
        {shown}: {files ? t("fields.fileNoFiles") : t("fields.fileLater")}
      </p>
    );
  }

  if (def.kind === "multi_select") {
    const chosen = Array.isArray(draft) && draft.every((d) => typeof d === "string") ? (draft as string[]) : [];
    return (
      <fieldset className="field-multi" aria-required={def.required || undefined}>
        <legend>
          {shown}
          {marker}
        </legend>
        {(def.options ?? []).map((o) => (
          <label key={o}>
            <input type="checkbox" checked={chosen.includes(o)} onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))} />
            {o}
          </label>
        ))}
        {problemText}
      </fieldset>
    );
  }

  const props = { def, personListId, files: files ?? [] };
  if (isRepeated(def)) {
    const rows = Array.isArray(draft) ? draft : [draft];
    return (
      <fieldset className="field-rows">
        <legend>
          {shown}
          {marker}
        </legend>
        {rows.map((d, i) => (
          <div className="field-row" key={i}>
            <FieldOne {...props} label={`${label} ${i + 1}`} draft={d} onChange={(next) => onChange(rows.map((r, j) => (j === i ? next : r)))} />
            <button
              className="icon-close"
              type="button"
              aria-label={t("fields.removeRow", { label, n: i + 1 })}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </div>
        ))}
        <button type="button" onClick={() => onChange([...rows, def.kind === "money" ? { amount: "", currency: "" } : ""])}>
          {t("fields.addRow", { label })}
        </button>
        {problemText}
      </fieldset>
    );
  }

  return (
    <div className="field">
      <span className="field-label" aria-hidden="true">
        {shown}
        {marker}
      </span>
      <FieldOne {...props} label={label} draft={draft as Draft} onChange={onChange} />
      {problemText}
    </div>
  );
}

/** The lists the inputs suggest from: currency codes, and the location's members for person fields. */
export function FieldLists({ personListId, people }: { personListId: string; people: string[] }) {
  return (
    <>
      <datalist id={CURRENCY_LIST_ID}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <datalist id={personListId}>
        {people.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
    </>
  );
}
