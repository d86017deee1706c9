import { z } from "zod";
import { fieldValuesSchema } from "./fields.js";
import { decimalSchema, timestampSchema, uuidSchema } from "./ids.js";
import { placePathEntrySchema } from "./places.js";
import { thingPhotoSchema } from "./thing-photos.js";

/** The spec leaves lifecycle values open; these are ours. `draft` and `ended` show in derivedState. */
export const LIFECYCLES = ["draft", "active", "in_repair", "ended"] as const;
export const lifecycleSchema = z.enum(LIFECYCLES);
export type Lifecycle = z.infer<typeof lifecycleSchema>;
export const CONDITIONS = ["new", "good", "fair", "poor", "broken"] as const;
export const conditionSchema = z.enum(CONDITIONS);
export type Condition = z.infer<typeof conditionSchema>;
export const DERIVED_STATES = ["uncertain", "draft", "ended", "lent", "borrowed", "in_repair"] as const;
export const derivedStateSchema = z.enum(DERIVED_STATES);

export const typeRefSchema = z.object({
  id: uuidSchema,
  icon: z.string(),
  name: z.string().nullable(),
  builtinKey: z.string().nullable(),
});
export type TypeRef = z.infer<typeof typeRefSchema>;

/** Thing summary (spec "Thing summary"), plus rowVersion so clients can write back. */
export const thingSummarySchema = z
  .object({
    id: uuidSchema,
    locationId: uuidSchema,
    shortCode: z.string().nullable(),
    name: z.string().nullable(),
    type: typeRefSchema,
    quantity: z.number(),
    lifecycle: lifecycleSchema,
    derivedState: z.array(derivedStateSchema),
    path: z.array(placePathEntrySchema),
    containerThumbUrl: z.string().nullable(),
    thumbUrl: z.string().nullable(),
    lastSeenAt: timestampSchema.nullable(),
    isContainer: z.boolean(),
    /** Tags of the owner account on this thing (registry `tags`). */
    tagIds: z.array(uuidSchema),
    rowVersion: z.number().int(),
  })
  .meta({ id: "ThingSummary" });
export type ThingSummary = z.infer<typeof thingSummarySchema>;

export const thingDetailSchema = thingSummarySchema
  .extend({
    placeId: uuidSchema.nullable(),
    containerId: uuidSchema.nullable(),
    description: z.string().nullable(),
    condition: conditionSchema.nullable(),
    brand: z.object({ id: uuidSchema, name: z.string() }).nullable(),
    model: z.string().nullable(),
    colour: z.string().nullable(),
    serial: z.string().nullable(),
    fields: z.record(z.string(), z.unknown()),
    /** The type's secret fields and whether this thing holds a value for each; never the values (reveal is its own call). */
    secrets: z.array(z.object({ key: z.string(), set: z.boolean() })),
    /** Every photo of the thing, in the order added; the cover is also the summary's thumbUrl. */
    photos: z.array(thingPhotoSchema),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: "Thing" });
export type ThingDetail = z.infer<typeof thingDetailSchema>;

const optionalText = (max: number) => z.string().trim().max(max).nullable();
/** Quantities are kept as numeric(14,3); the canonical string ("2.500") is what the database gives back. */
const quantity = z
  .union([decimalSchema, z.number().finite()])
  .refine((q) => Number(q) > 0 && Number(q) < 1e11, "quantity must be above 0 and below 100000000000")
  .transform((q) => Number(q).toFixed(3));

/** Tags on a thing: at most 50, each once; each must be a live tag of the location's account (else 404 tag). */
export const THING_TAGS_MAX = 50;
const tagIdsSchema = z
  .array(uuidSchema)
  .max(THING_TAGS_MAX)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, "name each tag once");
/** A template of the location's account offered in the op's location: its values fill what the args leave out. */
const templateIdSchema = uuidSchema.optional();

/** Editable attributes of a thing, shared by create and update. */
const thingAttributes = {
  name: z.string().trim().min(1).max(200).nullable(),
  description: optionalText(4000),
  typeId: uuidSchema,
  quantity,
  lifecycle: lifecycleSchema,
  condition: conditionSchema.nullable(),
  brandId: uuidSchema.nullable(),
  model: optionalText(200),
  colour: optionalText(80),
  serial: optionalText(200),
  isContainer: z.boolean(),
  fields: fieldValuesSchema,
  tagIds: tagIdsSchema,
};

const thingCreateShape = z
  .object({
    id: uuidSchema,
    placeId: uuidSchema.optional(),
    containerId: uuidSchema.optional(),
    templateId: templateIdSchema,
    ...thingAttributes,
  })
  .partial({
    name: true,
    description: true,
    typeId: true,
    quantity: true,
    lifecycle: true,
    condition: true,
    brandId: true,
    model: true,
    colour: true,
    serial: true,
    isContainer: true,
    fields: true,
    tagIds: true,
  })
  .strict();
const oneParent = (a: { placeId?: string | undefined; containerId?: string | undefined }) => !(a.placeId && a.containerId);
export const thingCreateArgs = thingCreateShape.refine(oneParent, "give placeId or containerId, not both");
/** REST create: the server makes the id when the client does not. */
export const thingCreateBody = thingCreateShape.partial({ id: true }).refine(oneParent, "give placeId or containerId, not both");
export type ThingCreateArgs = z.infer<typeof thingCreateArgs>;

const thingPatchShape = z.object(thingAttributes).partial().strict();
export const thingPatchSchema = thingPatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field");
/** REST PATCH: the patch plus, optionally, the rowVersion the writer saw (stale is 409; absent applies to the current record). */
export const thingPatchBody = thingPatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");
export type ThingPatch = z.infer<typeof thingPatchSchema>;
export const thingUpdateArgs = z.object({ id: uuidSchema, patch: thingPatchSchema });
export type ThingUpdateArgs = z.infer<typeof thingUpdateArgs>;

export const thingMoveArgs = z
  .object({ id: uuidSchema, placeId: uuidSchema.optional(), containerId: uuidSchema.optional() })
  .strict()
  .refine((a) => (a.placeId === undefined) !== (a.containerId === undefined), "give exactly one of placeId or containerId");
export type ThingMoveArgs = z.infer<typeof thingMoveArgs>;

export const thingDeleteArgs = z.object({ id: uuidSchema }).strict();
export type ThingDeleteArgs = z.infer<typeof thingDeleteArgs>;

export const thingListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  placeId: uuidSchema.optional(),
  typeId: uuidSchema.optional(),
  /** Only things carrying this tag. */
  tagId: uuidSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(2048).optional(),
});

/**
 * A quick capture from a device: a draft thing plus a `draft` inbox item for review. Photos are
 * file ids the device uploaded before pushing the op.
 */
export const thingCaptureArgs = z
  .object({
    id: uuidSchema,
    name: z.string().trim().min(1).max(200).nullable().optional(),
    placeId: uuidSchema.optional(),
    containerId: uuidSchema.optional(),
    typeId: uuidSchema.optional(),
    quantity: quantity.optional(),
    photoFileIds: z.array(uuidSchema).max(20).optional(),
    /** Items captured in one go share a batch (the inbox groups them). */
    batchId: uuidSchema.optional(),
    templateId: templateIdSchema,
    tagIds: tagIdsSchema.optional(),
  })
  .strict()
  .refine(oneParent, "give placeId or containerId, not both");
export type ThingCaptureArgs = z.infer<typeof thingCaptureArgs>;
