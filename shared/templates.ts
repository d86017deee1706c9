/**
 * Templates (spec "Template", `POST /api/v1/things/{id}/save-as-template`): a thing's values saved
 * as the starting point of new things, offered in chosen locations of the owner account.
 */
import { z } from "zod";
import { uuidSchema } from "./ids.js";
import { conditionSchema } from "./things.js";

/** Spec "Limits": name 1 to 80 characters, locationIds 1 to 100 items. */
export const TEMPLATE_NAME_MAX = 80;
export const TEMPLATE_LOCATIONS_MAX = 100;

const templateName = z.string().trim().min(1).max(TEMPLATE_NAME_MAX);
const templateLocationIds = z
  .array(uuidSchema)
  .min(1)
  .max(TEMPLATE_LOCATIONS_MAX)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, "name each location once");

/**
 * What a template holds: the values of the thing it was saved from that a new thing starts with.
 * Keys are absent when the thing had no value. Never the name, serial, place or photos (those
 * belong to one physical thing), never secret values, and money fields only when the saver sees
 * money.
 */
export const templatePayloadSchema = z
  .object({
    typeId: uuidSchema,
    description: z.string(),
    /** A decimal string, as things carry it ("2.000"). */
    quantity: z.string(),
    condition: conditionSchema,
    brandId: uuidSchema,
    model: z.string(),
    colour: z.string(),
    tagIds: z.array(uuidSchema),
    isContainer: z.boolean(),
    fields: z.record(z.string(), z.unknown()),
  })
  .partial();
export type TemplatePayload = z.infer<typeof templatePayloadSchema>;

/** The spec's template record; `locations` are those of `locationIds` the reader can see. */
export const templateSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    typeId: uuidSchema,
    typeIcon: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()),
    locations: z.array(z.object({ id: uuidSchema, name: z.string() })),
    rowVersion: z.number().int(),
  })
  .meta({ id: "Template" });
export type Template = z.infer<typeof templateSchema>;

/** Body of `POST /api/v1/things/{id}/save-as-template` (`id`: a device-made id, optional). */
export const saveAsTemplateBody = z.object({ id: uuidSchema.optional(), name: templateName, locationIds: templateLocationIds }).strict();

/** template.create: the op's location is the thing's. */
export const templateCreateArgs = z.object({ id: uuidSchema, thingId: uuidSchema, name: templateName, locationIds: templateLocationIds }).strict();
export type TemplateCreateArgs = z.infer<typeof templateCreateArgs>;

const templatePatchShape = z.object({ name: templateName, locationIds: templateLocationIds }).partial().strict();
export const templatePatchSchema = templatePatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field");
export type TemplatePatch = z.infer<typeof templatePatchSchema>;
/** REST PATCH: the patch plus, optionally, the rowVersion the writer saw (stale is 409; absent applies to the current record). */
export const templatePatchBody = templatePatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .strict()
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");
export const templateUpdateArgs = z.object({ id: uuidSchema, patch: templatePatchSchema }).strict();
export type TemplateUpdateArgs = z.infer<typeof templateUpdateArgs>;

export const templateDeleteArgs = z.object({ id: uuidSchema }).strict();
export type TemplateDeleteArgs = z.infer<typeof templateDeleteArgs>;

/** `GET /api/v1/templates?locationId=`: the templates offered in that location. */
export const templateListQuery = z.object({ locationId: uuidSchema });
