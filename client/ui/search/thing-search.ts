/**
 * Finding things on the device, offline: what a thing is searched by, and which things a place
 * filter keeps. Pure functions over rows the caller has read (client/ui/things-list.ts), so they
 * are unit-tested on their own and cost no index in Dexie.
 *
 * A thing is found by its name, description, model, serial, colour, short code, type, brand,
 * tags, where it is (every place and container above it, from the top) and the values of its
 * fields, except secret ones: a secret field's value is never searched, even if this device holds
 * one in a waiting op.
 */
import { formatCode } from "../../../shared/codes.js";
import type { BrandRow, PlaceRow, TagRow, ThingRow, TypeFieldRow, TypeRow } from "../../db/rows.js";
import { foldForSearch, holdsAll, searchTerms } from "./fold.js";

/** Containers and places nest at most this deep (the server's limit); a loop in bad data stops here. */
const MAX_DEPTH = 20;

/** Names as the person reads them (built-in types and the Unplaced area in their language). */
export interface SearchLabels {
  type: (type: TypeRow) => string;
  place: (place: PlaceRow) => string;
}

export interface SearchRows {
  /** Every thing of the location (containers are looked up here for the paths). */
  things: ReadonlyMap<string, ThingRow>;
  places: ReadonlyMap<string, PlaceRow>;
  types: readonly TypeRow[];
  brands: readonly BrandRow[];
  tags: readonly TagRow[];
  /** Every field definition the device holds: the secret ones name the keys never searched. */
  fields: readonly Pick<TypeFieldRow, "key" | "secret" | "deletedAt">[];
}

/** Field values worth searching: text and numbers, inside lists and objects too; not ids (files, people). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function valueWords(value: unknown, out: string[], depth = 0): void {
  if (depth > 3 || value === null || value === undefined) return;
  if (typeof value === "string") {
    if (!UUID.test(value)) out.push(value);
  } else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) valueWords(v, out, depth + 1);
  else if (typeof value === "object") for (const v of Object.values(value)) valueWords(v, out, depth + 1);
}

/**
 * The search of one location's things: built once per list read, it folds each type, brand, tag,
 * place and container name once, however many things share it.
 */
export class ThingSearch {
  private readonly typeText: Map<string, string>;
  private readonly brandText: Map<string, string>;
  private readonly tagText: Map<string, string>;
  private readonly secretKeys: Set<string>;
  private readonly placePathText = new Map<string, string>();
  private readonly containerPathText = new Map<string, string>();

  constructor(
    private readonly rows: SearchRows,
    private readonly labels: SearchLabels,
  ) {
    // A built-in type by its name in the person's language and by its key ("tool"), whatever the language.
    this.typeText = new Map(rows.types.map((ty) => [ty.id, foldForSearch(`${labels.type(ty)} ${ty.builtinKey ?? ""}`)]));
    this.brandText = new Map(rows.brands.map((b) => [b.id, foldForSearch(b.name)]));
    this.tagText = new Map(rows.tags.map((tg) => [tg.id, foldForSearch(tg.name)]));
    // A key secret in any type is left out everywhere: keys are shared words ("pin", "code"), and
    // leaving out a plain value by mistake costs less than searching a secret one.
    this.secretKeys = new Set(rows.fields.filter((f) => f.secret && !f.deletedAt).map((f) => f.key));
  }

  /** Every place name from the top down to `placeId`, folded. */
  private placePath(placeId: string | null): string {
    if (!placeId) return "";
    const known = this.placePathText.get(placeId);
    if (known !== undefined) return known;
    const names: string[] = [];
    for (let p = this.rows.places.get(placeId), depth = 0; p && depth < MAX_DEPTH; depth++) {
      names.push(this.labels.place(p));
      p = p.parentId ? this.rows.places.get(p.parentId) : undefined;
    }
    const text = foldForSearch(names.join(" "));
    this.placePathText.set(placeId, text);
    return text;
  }

  /** The container's name, code and everything above it (containers, then places), folded. */
  private containerPath(containerId: string, depth = 0): string {
    const known = this.containerPathText.get(containerId);
    if (known !== undefined) return known;
    const box = this.rows.things.get(containerId);
    let text = "";
    if (box && depth < MAX_DEPTH) {
      const above = box.containerId ? this.containerPath(box.containerId, depth + 1) : this.placePath(box.placeId);
      text = `${foldForSearch([box.name ?? "", box.shortCode ? formatCode(box.shortCode) : ""].join(" "))} ${above}`;
    }
    this.containerPathText.set(containerId, text);
    return text;
  }

  /** Everything `th` is found by, folded into one text. */
  text(th: ThingRow): string {
    const own: string[] = [th.name ?? "", th.description ?? "", th.model ?? "", th.serial ?? "", th.colour ?? ""];
    if (th.shortCode) own.push(th.shortCode, formatCode(th.shortCode));
    for (const [key, value] of Object.entries(th.fields ?? {})) if (!this.secretKeys.has(key)) valueWords(value, own);
    return [
      foldForSearch(own.join(" ")),
      th.typeId ? (this.typeText.get(th.typeId) ?? "") : "",
      th.brandId ? (this.brandText.get(th.brandId) ?? "") : "",
      ...th.tagIds.map((id) => this.tagText.get(id) ?? ""),
      th.containerId ? this.containerPath(th.containerId) : this.placePath(th.placeId),
    ].join(" ");
  }

  /** A test for `q` (every word somewhere in the thing's text); undefined when `q` has no words. */
  matcher(q: string): ((th: ThingRow) => boolean) | undefined {
    const terms = searchTerms(q);
    return terms.length ? (th) => holdsAll(this.text(th), terms) : undefined;
  }
}

/**
 * A test for "is in this place": directly, in any place inside it, or in a container (however
 * deep) that is. Undefined for "" (every place).
 */
export function placeFilter(
  placeId: string,
  places: ReadonlyMap<string, PlaceRow>,
  things: ReadonlyMap<string, ThingRow>,
): ((th: ThingRow) => boolean) | undefined {
  if (!placeId) return undefined;
  const within = new Set([placeId]);
  // Places list children by parent; walk down from the chosen one.
  const children = new Map<string, string[]>();
  for (const p of places.values()) if (p.parentId) children.set(p.parentId, [...(children.get(p.parentId) ?? []), p.id]);
  const stack = [placeId];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (within.has(c)) continue;
      within.add(c);
      stack.push(c);
    }
  }
  return (th) => {
    let at: ThingRow | undefined = th;
    for (let depth = 0; at?.containerId && depth < MAX_DEPTH; depth++) at = things.get(at.containerId);
    return !!at?.placeId && !at.containerId && within.has(at.placeId);
  };
}
