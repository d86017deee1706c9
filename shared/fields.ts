import { z } from "zod";

/** Kinds of field a type or a place kind can define (the `kind` column of type_fields). */
export const FIELD_KINDS = ["text", "number", "date", "select", "multi_select", "boolean", "url", "money", "person", "vendor", "file"] as const;
export const fieldKindSchema = z.enum(FIELD_KINDS);
export type FieldKind = z.infer<typeof fieldKindSchema>;

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
