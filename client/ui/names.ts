/** How rows are named on screen: built-in types and places by key in the person's language. */
import { formatCode } from "../../shared/codes.js";
import type { MessageKey } from "./i18n/i18n.js";
import type { I18n } from "./i18n/i18n.js";
import type { PlaceKindRow, PlaceRow, ThingRow, TypeRow } from "../db/rows.js";

export function typeName(type: TypeRow | undefined, t: I18n["t"]): string {
  if (!type) return t("type.thing");
  if (type.name) return type.name;
  const key = `type.${type.builtinKey ?? "thing"}` as MessageKey;
  return t(key) === key ? (type.builtinKey ?? "") : t(key);
}

export function placeKindName(kind: Pick<PlaceKindRow, "name" | "builtinKey"> | undefined, t: I18n["t"]): string {
  if (!kind) return "";
  if (kind.name) return kind.name;
  const key = `placeKind.${kind.builtinKey ?? ""}` as MessageKey;
  return t(key) === key ? (kind.builtinKey ?? "") : t(key);
}

export function placeName(place: PlaceRow | undefined, t: I18n["t"]): string {
  if (!place) return "";
  return place.isUnplaced ? t("places.unplaced") : place.name;
}

export function thingName(thing: Pick<ThingRow, "name"> | undefined, t: I18n["t"]): string {
  return thing?.name?.trim() || t("common.unnamed");
}

/**
 * "Garage › Shelf 2 › Red box": where a thing is, from the top. With `codes`, each box carries its
 * short code ("Red box K7M-4QX"): the label a person looks for on the shelf.
 */
export function wherePath(thing: ThingRow, places: Map<string, PlaceRow>, things: Map<string, ThingRow>, t: I18n["t"], codes = false): string {
  const parts: string[] = [];
  let container = thing.containerId ? things.get(thing.containerId) : undefined;
  let placeId = thing.placeId;
  for (let guard = 0; container && guard < 20; guard++) {
    parts.unshift(codes && container.shortCode ? `${thingName(container, t)} ${formatCode(container.shortCode)}` : thingName(container, t));
    placeId = container.placeId;
    container = container.containerId ? things.get(container.containerId) : undefined;
  }
  for (let p = placeId ? places.get(placeId) : undefined, guard = 0; p && guard < 20; guard++) {
    parts.unshift(placeName(p, t));
    p = p.parentId ? places.get(p.parentId) : undefined;
  }
  return parts.join(" › ");
}

/** A field's label: its own, or a built-in field's by key in the person's language, or its key. */
export function fieldLabel(field: { key: string; label: string | null; labelKey: string | null }, t: I18n["t"]): string {
  if (field.label) return field.label;
  if (field.labelKey) {
    const key = `field.${field.labelKey}` as MessageKey;
    if (t(key) !== key) return t(key);
  }
  return field.key;
}
