/**
 * Adding a meter to a thing, or editing one: kind, unit, label, the optional limits (maxPerDay,
 * nudgeDays, with the spec's bounds shown and checked by the shared zod schemas before anything is
 * queued) and, when editing, the offset of a replaced counter.
 */
import { useState } from "react";
import {
  METER_KINDS,
  MAX_PER_DAY_MAX,
  METER_LABEL_MAX,
  NUDGE_DAYS_MAX,
  NUDGE_DAYS_MIN,
  meterCreateBody,
  meterPatchSchema,
  type MeterKind,
  type MeterUpdateArgs,
} from "../../../shared/meters.js";
import type { MeterRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { DEFAULT_UNIT, FIELD_ERROR, draftOf, numberOrNull, sameDecimal, type Draft, type FieldName } from "./MeterDraft.js";

export type MeterFormResult =
  | { mode: "create"; args: { kind: MeterKind; unit: string; label: string | null; maxPerDay: number | null; nudgeDays: number | null } }
  | { mode: "edit"; patch: MeterUpdateArgs["patch"] };

export function MeterForm(props: { meter?: MeterRow; onSave: (r: MeterFormResult) => Promise<unknown>; onCancel?: () => void }) {
  const { t, num } = useI18n();
  const editing = !!props.meter;
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.meter));
  const [problem, setProblem] = useState<FieldName | null>(null);
  const set = (k: FieldName, v: string) => setDraft((d) => ({ ...d, [k]: v }));
  const fieldOf = (path: readonly PropertyKey[]): FieldName => {
    const f = String(path[0]);
    return f in FIELD_ERROR ? (f as FieldName) : "unit";
  };

  const submit = async () => {
    const args = {
      kind: draft.kind,
      unit: draft.unit.trim(),
      label: draft.label.trim() || null,
      maxPerDay: numberOrNull(draft.maxPerDay),
      nudgeDays: numberOrNull(draft.nudgeDays),
    };
    if (!props.meter) {
      const ok = meterCreateBody.safeParse(args);
      if (!ok.success) return setProblem(fieldOf(ok.error.issues[0]?.path ?? []));
      setProblem(null);
      await props.onSave({ mode: "create", args });
      setDraft(draftOf(undefined));
      return;
    }
    const before = draftOf(props.meter);
    const patch: Record<string, unknown> = {};
    if (draft.kind !== before.kind) patch.kind = args.kind;
    if (draft.unit.trim() !== before.unit) patch.unit = args.unit;
    if (draft.label.trim() !== before.label) patch.label = args.label;
    if (draft.maxPerDay.trim() !== before.maxPerDay && numberOrNull(draft.maxPerDay) !== numberOrNull(before.maxPerDay)) patch.maxPerDay = args.maxPerDay;
    if (draft.nudgeDays.trim() !== before.nudgeDays) patch.nudgeDays = args.nudgeDays;
    if (!sameDecimal(draft.offset, before.offset)) patch.offset = draft.offset.trim();
    if (!Object.keys(patch).length) return props.onCancel?.();
    const ok = meterPatchSchema.safeParse(patch);
    if (!ok.success) return setProblem(fieldOf(ok.error.issues[0]?.path ?? []));
    setProblem(null);
    await props.onSave({ mode: "edit", patch: ok.data });
  };

  const error = (f: FieldName) => (problem === f ? <Notice kind="error">{t(FIELD_ERROR[f])}</Notice> : null);
  return (
    <form
      className="stack"
      aria-label={editing ? t("meters.edit") : t("meters.add")}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        {t("meters.kind")}
        <select
          aria-label={t("meters.kind")}
          value={draft.kind}
          onChange={(e) => {
            const kind = e.target.value as MeterKind;
            // A new meter's unit follows its kind until the person types one.
            setDraft((d) => ({ ...d, kind, ...(!editing && d.unit === DEFAULT_UNIT[d.kind] ? { unit: DEFAULT_UNIT[kind] } : {}) }));
          }}
        >
          {METER_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`meters.kind.${k}`)}
            </option>
          ))}
        </select>
      </label>
      {error("kind")}
      <label>
        {t("meters.unit")}
        <input value={draft.unit} maxLength={12} onChange={(e) => set("unit", e.target.value)} autoComplete="off" />
      </label>
      {error("unit")}
      <label>
        {t("meters.label")}
        <input value={draft.label} maxLength={METER_LABEL_MAX} onChange={(e) => set("label", e.target.value)} autoComplete="off" />
        <span className="hint">{t("meters.hint.label", { max: METER_LABEL_MAX })}</span>
      </label>
      {error("label")}
      <label>
        {t("meters.maxPerDay")}
        <input inputMode="decimal" value={draft.maxPerDay} onChange={(e) => set("maxPerDay", e.target.value)} autoComplete="off" />
        <span className="hint">{t("meters.hint.maxPerDay", { max: num(MAX_PER_DAY_MAX) })}</span>
      </label>
      {error("maxPerDay")}
      <label>
        {t("meters.nudgeDays")}
        <input inputMode="numeric" value={draft.nudgeDays} onChange={(e) => set("nudgeDays", e.target.value)} autoComplete="off" />
        <span className="hint">{t("meters.hint.nudgeDays", { min: NUDGE_DAYS_MIN, max: NUDGE_DAYS_MAX })}</span>
      </label>
      {error("nudgeDays")}
      {editing ? (
        <>
          <label>
            {t("meters.offset")}
            <input inputMode="decimal" value={draft.offset} onChange={(e) => set("offset", e.target.value)} autoComplete="off" />
            <span className="hint">{t("meters.hint.offset")}</span>
          </label>
          {error("offset")}
        </>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary">
          {editing ? t("meters.saveChanges") : t("meters.create")}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            {t("common.cancel")}
          </button>
        ) : null}
      </div>
    </form>
  );
}
