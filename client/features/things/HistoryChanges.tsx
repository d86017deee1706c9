/**
 * What one history entry changed, field by field: the field's label (a custom field's from the
 * type registry, a built-in one in the person's language) and its old and new values, with ids
 * read as names from this device's store. Values come from the server's summary lines, which
 * already leave out secret fields' values, and money the reader may not see (the line then says
 * only that the field changed): nothing here decides what is hidden.
 */
import type { HistoryEntry } from "../../../shared/history.js";
import type { BrandRow, PlaceRow, TagRow, ThingRow } from "../../db/rows.js";
import { formatFieldValue } from "../../ui/field-format.js";
import type { FieldDef } from "../../ui/field-values.js";
import type { I18n, MessageKey } from "../../ui/i18n/i18n.js";
import { placeName, thingName, typeName } from "../../ui/names.js";
import type { Registries } from "../../ui/registries.js";
import "./history.css";

/** Names for the ids an entry may hold, read from Dexie by the caller. */
export interface HistoryNames {
  places: Map<string, PlaceRow>;
  things: Map<string, ThingRow>;
  brands: Map<string, BrandRow>;
  tags: Map<string, TagRow>;
}

type FieldLabel = { label: string; def?: FieldDef };

/** The server writes null as "—" and anything but a string as JSON (server/modules/history/read.ts). */
const NONE = "—";
function parsed(text: string): unknown {
  if (text === NONE) return null;
  if (!/^[[{"\d-]|^(true|false|null)$/.test(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The ids a set of entries names, by kind, so the caller can read their names. */
export function namedIds(items: readonly HistoryEntry[]): { places: string[]; things: string[] } {
  const places = new Set<string>();
  const things = new Set<string>();
  for (const h of items)
    for (const l of h.summaryLines ?? [])
      for (const v of [l.params.from, l.params.to]) {
        if (!v || v === NONE) continue;
        if (l.params.field === "placeId") places.add(v);
        if (l.params.field === "containerId") things.add(v);
      }
  return { places: [...places], things: [...things] };
}

export function HistoryChanges(props: { entry: HistoryEntry; fields: FieldDefs; reg: Registries | undefined; names: HistoryNames; i18n: I18n }) {
  const { entry, fields, reg, names, i18n } = props;
  const { t } = i18n;
  const lines = (entry.summaryLines ?? []).filter((l) => l.params.field);
  if (!lines.length) return null;
  return (
    <ul className="history-changes" aria-label={t("history.changes")}>
      {lines.map((l) => {
        const field = l.params.field!;
        const { label, def } = fieldLabel(field, fields, t);
        if (l.key === "history.field_changed_hidden")
          return (
            <li key={field} data-field={field}>
              {t("history.changeHidden", { field: label })}
            </li>
          );
        const show = (v: string | undefined) => valueText(field, def, v ?? NONE, reg, names, i18n);
        // A field that had no value (a new thing's) shows only what it got.
        return (
          <li key={field} data-field={field}>
            <bdi>{label}</bdi>:{" "}
            {(l.params.from ?? NONE) === NONE ? null : (
              <>
                <bdi>{show(l.params.from)}</bdi> {t("history.arrow")}{" "}
              </>
            )}
            <bdi>{show(l.params.to)}</bdi>
          </li>
        );
      })}
    </ul>
  );
}

/** Custom fields by key: the thing's type's own first, then any of the account's (a type changed since). */
export type FieldDefs = Map<string, FieldDef & { label: string | null }>;

function fieldLabel(field: string, fields: FieldDefs, t: I18n["t"]): FieldLabel {
  if (field.startsWith("fields.")) {
    const key = field.slice(7);
    const def = fields.get(key);
    return def ? { label: def.label ?? key, def } : { label: key };
  }
  const key = `history.field.${field}` as MessageKey;
  const label = t(key);
  return { label: label === key ? field : label };
}

function valueText(field: string, def: FieldDef | undefined, text: string, reg: Registries | undefined, names: HistoryNames, i18n: I18n): string {
  const { t } = i18n;
  const v = parsed(text);
  if (v === null || v === "") return t("history.empty");
  if (def) return formatFieldValue(def, v, i18n) || t("history.empty");
  const id = typeof v === "string" ? v : "";
  const known = (name: string | undefined) => name || t("history.unknown");
  switch (field) {
    case "placeId":
      return known(names.places.get(id) && placeName(names.places.get(id), t));
    case "containerId":
      return known(names.things.get(id) && thingName(names.things.get(id), t));
    case "typeId":
      return reg?.typesById.get(id) ? typeName(reg.typesById.get(id), t) : t("history.unknown");
    case "brandId":
      return known(names.brands.get(id)?.name);
    case "tagIds":
      return Array.isArray(v) ? v.map((tag) => known(names.tags.get(String(tag))?.name)).join(", ") : text;
    case "isContainer":
      return v === true ? t("history.yes") : v === false ? t("history.no") : text;
    case "lifecycle":
      return translated(`lifecycle.${id}`, id, t);
    case "condition":
      return translated(`share.condition.${id}`, id, t);
    case "deletedAt":
      return i18n.dateTime(id);
    case "quantity":
      return Number.isFinite(Number(v)) ? i18n.num(Number(v)) : text;
    default:
      return typeof v === "string" ? v : text;
  }
}

function translated(key: string, fallback: string, t: I18n["t"]): string {
  const out = t(key as MessageKey);
  return out === key ? fallback : out;
}
