/**
 * Custom field values on places: checked against the place kind's fields (the one value check,
 * server/modules/registries/field-values.ts), merged by key into the place's values.
 */
import type { CommandContext } from "../../commands/types.js";
import { fileLocations, loadPlaceKindFields, valuesProblem } from "../registries/field-values.js";
import { fileIdsOf, placeKindFields, type EffectiveField } from "../types/fields.js";

/**
 * What checks a segment's field values: each kind's fields, and the location of every file the
 * values name. A place without a kind has no fields.
 */
export async function fieldChecker(ctx: CommandContext, wanted: { kindId?: string | null | undefined; fields?: Record<string, unknown> | undefined }[]) {
  const withValues = wanted.filter((w) => w.fields && Object.keys(w.fields).length);
  const byKind = await loadPlaceKindFields(
    ctx,
    withValues.map((w) => w.kindId).filter((x): x is string => !!x),
  );
  const defsOf = (kindId: string | null | undefined): Map<string, EffectiveField> =>
    kindId ? placeKindFields(kindId, byKind.get(kindId) ?? []) : new Map<string, EffectiveField>();
  const files = await fileLocations(
    ctx,
    withValues.flatMap((w) => fileIdsOf(defsOf(w.kindId), w.fields!)),
  );
  return {
    defsOf,
    problem: (kindId: string | null | undefined, fields: Record<string, unknown>, locationId: string, complete: boolean) =>
      valuesProblem(defsOf(kindId), fields, { locationId, fileLocation: files, complete, owner: kindId ? "place kind" : "place (it has no kind)" }),
  };
}

/** A place's values with a patch merged in by key (null clears one). */
export function mergeFields(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}
