import { z } from "zod";
import { UUID_PATTERN } from "./ids.js";

/** Kinds of field a type or a place kind can define (the `kind` column of type_fields). */
export const FIELD_KINDS = ["text", "number", "date", "select", "multi_select", "boolean", "url", "money", "person", "vendor", "file"] as const;
export const fieldKindSchema = z.enum(FIELD_KINDS);
export type FieldKind = z.infer<typeof fieldKindSchema>;

/** A value that is a uuid, in lower case (a list's items too): the others as they are. */
const lowerCaseIds = (v: unknown): unknown => (typeof v === "string" && UUID_PATTERN.test(v) ? v.toLowerCase() : Array.isArray(v) ? v.map(lowerCaseIds) : v);

/**
 * Custom field values by key, as a request (or a pushed op) sends them; each is checked by its
 * field's kind on the server (server/modules/types/fields.ts). A file field holds a file's id, or a
 * list of them, and an id is the same id in either case (shared/ids.ts): the kinds are not known
 * here, so every value that is a uuid is read in lower case, the one spelling the code compares.
 */
export const fieldValuesSchema = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/), z.unknown())
  .overwrite((values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, lowerCaseIds(v)])));

/** Where a field a type shows comes from (the spec's `source.via`). */
export type FieldVia = "own" | "inherited" | "group";

/** A field as a type sees it: the field, how it reaches the type, and the type (or place kind) defining it. */
export interface EffectiveField<F> {
  field: F;
  via: FieldVia;
  /** The spec's `source.typeId`. */
  ownerId: string;
}

/**
 * The fields a thing of `typeId` has: its own, then its parents' (`inherited`, nearest first), then
 * its groups' (`group`); a key defined closer to the type wins. One rule for the server's checks
 * and the app's forms. `fieldsByOwner` holds the fields to consider (live ones, as the caller decides).
 */
export function effectiveFields<F extends { key: string }>(
  typeId: string,
  typesById: ReadonlyMap<string, { parentId: string | null; groupIds: readonly string[] }>,
  fieldsByOwner: ReadonlyMap<string, readonly F[]>,
): Map<string, EffectiveField<F>> {
  const out = new Map<string, EffectiveField<F>>();
  const add = (ownerId: string, via: FieldVia) => {
    for (const f of fieldsByOwner.get(ownerId) ?? []) if (!out.has(f.key)) out.set(f.key, { field: f, via, ownerId });
  };
  add(typeId, "own");
  const seen = new Set([typeId]);
  for (let parent = typesById.get(typeId)?.parentId ?? null; parent && !seen.has(parent); parent = typesById.get(parent)?.parentId ?? null) {
    seen.add(parent);
    add(parent, "inherited");
  }
  for (const g of typesById.get(typeId)?.groupIds ?? []) add(g, "group");
  return out;
}
