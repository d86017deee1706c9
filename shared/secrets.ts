/**
 * Secret fields: revealing one value, and converting a type field to or from secret (with the
 * preview of what a conversion would do, per location).
 */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** A custom field's key (the spec's pattern for type-field and place-kind-field keys). */
export const fieldKeySchema = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a field key");

/** secret.reveal (REST only; never pushed): reveal `key` of thing `id`, audited in its history. */
export const secretRevealArgs = z.object({ id: uuidSchema, key: fieldKeySchema }).strict();
export type SecretRevealArgs = z.infer<typeof secretRevealArgs>;

/** A revealed value: null when the thing holds none (never set, or cleared). */
export const revealedSecretSchema = z.object({ key: z.string(), value: z.unknown() }).meta({ id: "RevealedSecret" });
export type RevealedSecret = z.infer<typeof revealedSecretSchema>;

/** Body of both convert routes: the form the field takes (required: a conversion names its direction). */
export const convertBody = z.object({ toSecret: z.boolean() }).strict();

/** type_field.convert (REST only): the field becomes secret (or plain) and every value moves with it. */
export const typeFieldConvertArgs = z.object({ id: uuidSchema, toSecret: z.boolean() }).strict();
export type TypeFieldConvertArgs = z.infer<typeof typeFieldConvertArgs>;

/**
 * Per location: `values` things holding a value, `convertible` those whose value takes the new
 * form, `toNotes` those whose value does not (it goes into the thing's notes as "<label>: <value>").
 */
export const conversionLocationSchema = z.object({
  id: uuidSchema,
  name: z.string().nullable(),
  values: z.number().int(),
  convertible: z.number().int(),
  toNotes: z.number().int(),
});

export const conversionPreviewSchema = z.object({ locations: z.array(conversionLocationSchema), total: z.number().int() }).meta({ id: "ConversionPreview" });
export type ConversionPreview = z.infer<typeof conversionPreviewSchema>;

/** What a conversion did: the preview's counts as done, and the field's new state. */
export const conversionSchema = conversionPreviewSchema
  .extend({ id: uuidSchema, secret: z.boolean(), rowVersion: z.number().int() })
  .meta({ id: "Conversion" });
export type Conversion = z.infer<typeof conversionSchema>;
