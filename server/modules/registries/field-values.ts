/**
 * Field values checked against the fields that apply (a thing's type, a place's kind): each value
 * by its kind (server/modules/types/fields.ts), every file id an uploaded file of the row's own
 * location, and, where a finished record is made, every required field filled.
 */
import { and, inArray, isNull } from "drizzle-orm";
import type { CommandContext } from "../../commands/types.js";
import { files, typeFields } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { fieldValueProblem, fileIdsOf, missingRequired, type EffectiveField } from "../types/fields.js";

type FieldRow = typeof typeFields.$inferSelect;

/** Live fields of these place kinds, by kind. */
export async function loadPlaceKindFields(ctx: CommandContext, kindIds: string[]): Promise<Map<string, FieldRow[]>> {
  const out = new Map<string, FieldRow[]>();
  const ids = [...new Set(kindIds)];
  if (!ids.length) return out;
  const found = await ctx.tx
    .select()
    .from(typeFields)
    .where(and(inArray(typeFields.placeKindId, ids), isNull(typeFields.archivedAt), isNull(typeFields.deletedAt)));
  for (const f of found) (out.get(f.placeKindId!) ?? out.set(f.placeKindId!, []).get(f.placeKindId!)!).push(f);
  return out;
}

/** The location of each live file among `ids` (read through RLS: a file the actor cannot see is absent). */
export async function fileLocations(ctx: CommandContext, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const found = await ctx.tx
    .select({ id: files.id, locationId: files.locationId })
    .from(files)
    .where(and(inArray(files.id, unique), isNull(files.deletedAt)));
  return new Map(found.map((f) => [f.id, f.locationId]));
}

export interface ValuesCheck {
  /** The location of the row the values go on: file ids must name files uploaded there. */
  locationId: string;
  fileLocation: ReadonlyMap<string, string>;
  /** Check that every required field is filled (a create of a finished record). */
  complete?: boolean;
  /** What the fields belong to, for messages ("type", "place kind"). */
  owner: string;
}

/** The first problem of `values` against `defs`, or null. */
export function valuesProblem(
  defs: ReadonlyMap<string, EffectiveField>,
  values: Record<string, unknown>,
  check: ValuesCheck,
): ValidationError | NotFoundError | null {
  for (const [key, value] of Object.entries(values)) {
    const def = defs.get(key);
    if (!def) return new ValidationError(`fields.${key}: the ${check.owner} has no field "${key}".`, { field: key });
    const why = fieldValueProblem(def.field, value);
    if (why) return new ValidationError(`fields.${key}: ${why}.`, { field: key });
  }
  for (const id of fileIdsOf(defs, values)) if (check.fileLocation.get(id) !== check.locationId) return new NotFoundError("file");
  if (check.complete) {
    const missing = missingRequired(defs, values);
    if (missing) return new ValidationError(`fields.${missing}: this field is required.`, { field: missing });
  }
  return null;
}
