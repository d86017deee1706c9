/**
 * What a thing is, on its page: type, quantity, where, lifecycle, and every field of its type with
 * its value (archived fields only where the thing still has a value). A secret field shows whether
 * it is set and reveals its value on request only.
 */
import type { ThingRow, TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { formatFieldValue } from "../../ui/field-format.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { fieldLabel, typeName } from "../../ui/names.js";
import { effectiveFields, type Registries } from "../../ui/registries.js";
import type { FileChoice } from "../types/FieldOne.js";
import { useSecretsSet } from "./hooks.js";
import { SecretValue } from "./SecretValue.js";

interface Props {
  thing: View<ThingRow>;
  type: TypeRow | undefined;
  reg: Registries;
  /** The path of places and containers the thing is in. */
  where: string;
  files: FileChoice[];
}

export function ThingFacts({ thing, type, reg, where, files }: Props) {
  const i18n = useI18n();
  const { t, num } = i18n;
  const values = thing.fields ?? {};
  const all = effectiveFields(thing.typeId, reg.typesById, reg.fields, true);
  const secretsSet = useSecretsSet(thing.id, thing.rowVersion, all.some((e) => e.field.secret) && thing.rowVersion > 0);
  // Every field of the type, and archived ones only where the thing still has a value.
  const shownFields = all.filter((e) => !e.field.archivedAt || values[e.field.key] !== undefined || e.field.secret);
  const fileName = (id: string) => files.find((f) => f.id === id)?.label;
  return (
    <dl className="facts">
      <dt>{t("thing.type")}</dt>
      <dd>{typeName(type, t)}</dd>
      <dt>{t("thing.quantity")}</dt>
      <dd>{num(Number(thing.quantity))}</dd>
      <dt>{t("thing.where")}</dt>
      <dd>{where}</dd>
      <dt>{t("thing.lifecycle")}</dt>
      <dd>{t(`lifecycle.${thing.lifecycle}`)}</dd>
      {shownFields.map(({ field: f }) => {
        const label = fieldLabel(f, t);
        return (
          <div className="fact" key={f.id}>
            <dt>
              {label}
              {f.required ? (
                <span className="required" aria-hidden="true">
                  {" *"}
                </span>
              ) : null}
            </dt>
            <dd>
              {f.secret ? (
                secretsSet && !secretsSet[f.key] ? (
                  <span className="meta">{t("fields.notSet")}</span>
                ) : (
                  <SecretValue thingId={thing.id} def={f} label={label} />
                )
              ) : (
                formatFieldValue(f, values[f.key], i18n, fileName) || <span className="meta">{t("fields.empty")}</span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
