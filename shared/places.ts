import { z } from "zod";
import { fieldValuesSchema } from "./fields.js";
import { timestampSchema, uuidSchema } from "./ids.js";

export const placeSchema = z
  .object({
    id: uuidSchema,
    locationId: uuidSchema,
    parentId: uuidSchema.nullable(),
    kindId: uuidSchema.nullable(),
    name: z.string(),
    isUnplaced: z.boolean(),
    shortCode: z.string().nullable(),
    /** Values of the place kind's fields by key (money ones left out for a viewer who may not see money). */
    fields: z.record(z.string(), z.unknown()),
    rowVersion: z.number().int(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: "Place" });
export type Place = z.infer<typeof placeSchema>;

const placeName = z.string().trim().min(1).max(120);
/**
 * Values of the place kind's fields by key (server/modules/types/fields.ts checks each by its
 * kind); in a patch a key set to null clears that value and keys left out keep theirs. A place
 * without a kind has no fields.
 */
const placeFields = fieldValuesSchema;

export const placeCreateArgs = z.object({
  id: uuidSchema,
  name: placeName,
  parentId: uuidSchema.nullable().optional(),
  kindId: uuidSchema.nullable().optional(),
  fields: placeFields.optional(),
});
export type PlaceCreateArgs = z.infer<typeof placeCreateArgs>;

const placePatchShape = z.object({ name: placeName, parentId: uuidSchema.nullable(), kindId: uuidSchema.nullable(), fields: placeFields }).partial().strict();
export const placePatchSchema = placePatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field");
export const placePatchBody = placePatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");
export const placeCreateBody = placeCreateArgs.partial({ id: true });
export const placeUpdateArgs = z.object({ id: uuidSchema, patch: placePatchSchema });
export type PlaceUpdateArgs = z.infer<typeof placeUpdateArgs>;

/** Deletes an empty place (a tombstone); one that still holds places or things is refused. */
export const placeDeleteArgs = z.object({ id: uuidSchema }).strict();
export type PlaceDeleteArgs = z.infer<typeof placeDeleteArgs>;

/** Place-path entry of the spec: the chain from the location's root down to a thing's parent. */
export const placePathEntrySchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    kind: z.enum(["place", "container"]),
    isUnplaced: z.boolean(),
    shortCode: z.string().nullable().optional(),
  })
  .meta({ id: "PlacePathEntry" });
export type PlacePathEntry = z.infer<typeof placePathEntrySchema>;
