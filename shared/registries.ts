/**
 * Registries of an owner account (types and their fields, place kinds and theirs, brands, tags):
 * the pushable ops' args, the REST bodies and the records the API answers. Shared by every location
 * of the account (DESIGN.md "Data conventions"); an op is made through one of them.
 */
import { z } from "zod";
import { fieldKindSchema, type FieldKind } from "./fields.js";
import { timestampSchema, uuidSchema } from "./ids.js";

/** Spec "Type field and place-kind field": a key names one field of its owner for good. */
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const MAX_FIELD_OPTIONS = 100;
export const MAX_GROUPS = 20;
/** How far `sort` may go either way (it orders a type's fields; any int32 would do, these are plenty). */
export const SORT_LIMIT = 1_000_000;

/** Kinds that take `options` (and need at least one). */
export const KINDS_WITH_OPTIONS: readonly FieldKind[] = ["select", "multi_select"];
/** Kinds that take a `unit`: a number's ("kg", "W"), or a money amount's ("/month"). Elsewhere a unit means nothing: 400. */
export const KINDS_WITH_UNIT: readonly FieldKind[] = ["number", "money"];
/** Kinds that cannot be repeatable: a multi_select is already a list, and a list of yes/no is not a field. */
export const KINDS_NOT_REPEATABLE: readonly FieldKind[] = ["multi_select", "boolean"];

const name = z.string().trim().min(1).max(80);
const icon = z.string().trim().min(1).max(40);
const label = z.string().trim().min(1).max(80);
const unit = z.string().trim().min(1).max(12);
const options = z
  .array(z.string().trim().min(1).max(80))
  .max(MAX_FIELD_OPTIONS)
  .refine((o) => new Set(o).size === o.length, "options must be distinct");
const sort = z.number().int().min(-SORT_LIMIT).max(SORT_LIMIT);
const groupIds = z
  .array(uuidSchema)
  .max(MAX_GROUPS)
  .refine((g) => new Set(g).size === g.length, "groupIds must be distinct");
/** A colour token of the app's palette ("red", "sky-500"); null for the default. */
const colour = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "must be a colour token such as red or sky-500");

const nonEmpty = (p: object) => Object.keys(p).length > 0;
const NON_EMPTY = "patch must change at least one field";

// ---------------------------------------------------------------------------------------------
// Types

export const typeCreateArgs = z
  .object({
    id: uuidSchema,
    name,
    icon: icon.optional(),
    parentId: uuidSchema.nullable().optional(),
    groupIds: groupIds.optional(),
    isGroup: z.boolean().optional(),
    containerByDefault: z.boolean().optional(),
  })
  .strict();
export type TypeCreateArgs = z.infer<typeof typeCreateArgs>;
export const typeCreateBody = typeCreateArgs.partial({ id: true });

const typePatchShape = z
  .object({ name, icon, parentId: uuidSchema.nullable(), groupIds, containerByDefault: z.boolean(), archived: z.boolean() })
  .partial()
  .strict();
export const typePatchSchema = typePatchShape.refine(nonEmpty, NON_EMPTY);
export type TypePatch = z.infer<typeof typePatchSchema>;
export const typeUpdateArgs = z.object({ id: uuidSchema, patch: typePatchSchema }).strict();
export type TypeUpdateArgs = z.infer<typeof typeUpdateArgs>;
/** PATCH /api/v1/types/{id}: the patch and, optionally, the rowVersion the writer saw. */
export const typePatchBody = typePatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), NON_EMPTY);

// ---------------------------------------------------------------------------------------------
// Type fields and place-kind fields (one table, one record)

/** The spec's body of POST /api/v1/place-kinds/{id}/fields (and of POST /api/v1/types/{id}/fields). */
export const fieldCreateBody = z
  .object({
    id: uuidSchema.optional(),
    key: z.string().regex(FIELD_KEY_PATTERN, "must match ^[a-z][a-z0-9_]{0,39}$"),
    label,
    kind: fieldKindSchema,
    unit: unit.optional(),
    options: options.optional(),
    repeatable: z.boolean().optional(),
    required: z.boolean().optional(),
    secret: z.boolean().optional(),
    sort: sort.optional(),
  })
  .strict();

/** Null when a field of `kind` may carry this unit, these options and repeat; otherwise why not. */
type FieldShape = { kind: FieldKind; unit?: string | null | undefined; options?: string[] | null | undefined; repeatable?: boolean | null | undefined };

export function fieldShapeProblem(f: FieldShape): {
  path: string;
  message: string;
} | null {
  if (KINDS_WITH_OPTIONS.includes(f.kind)) {
    if (!f.options?.length) return { path: "options", message: `a ${f.kind} field needs at least one option` };
  } else if (f.options != null) return { path: "options", message: `only select and multi_select fields take options, not ${f.kind}` };
  if (f.unit != null && !KINDS_WITH_UNIT.includes(f.kind)) return { path: "unit", message: `only number and money fields take a unit, not ${f.kind}` };
  if (f.repeatable && KINDS_NOT_REPEATABLE.includes(f.kind)) return { path: "repeatable", message: `a ${f.kind} field cannot be repeatable` };
  return null;
}

const shapeChecked = <T extends z.ZodType<FieldShape>>(schema: T) =>
  schema.superRefine((f, ctx) => {
    const p = fieldShapeProblem(f);
    if (p) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
  });

export const fieldBody = shapeChecked(fieldCreateBody);

/** A field of a type or of a place kind: exactly one of `typeId` and `placeKindId` (each alternative is strict). */
const fieldOfOwner = fieldCreateBody.extend({ id: uuidSchema });
export const typeFieldCreateArgs = shapeChecked(z.union([fieldOfOwner.extend({ typeId: uuidSchema }), fieldOfOwner.extend({ placeKindId: uuidSchema })]));
export type TypeFieldCreateArgs = z.infer<typeof typeFieldCreateArgs>;
/** The owner a new field's args name. */
export const fieldOwnerOf = (a: TypeFieldCreateArgs): { typeId: string | null; placeKindId: string | null } =>
  "typeId" in a ? { typeId: a.typeId, placeKindId: null } : { typeId: null, placeKindId: a.placeKindId };

const fieldPatchShape = z.object({ label, unit: unit.nullable(), options: options.nullable(), required: z.boolean(), sort }).partial().strict();
export const fieldPatchSchema = fieldPatchShape.refine(nonEmpty, NON_EMPTY);
export type FieldPatch = z.infer<typeof fieldPatchSchema>;
export const typeFieldUpdateArgs = z.object({ id: uuidSchema, patch: fieldPatchSchema }).strict();
export type TypeFieldUpdateArgs = z.infer<typeof typeFieldUpdateArgs>;
/**
 * PATCH /api/v1/type-fields/{id}: the spec's body (label, unit, options, required, sort, all
 * optional). `rowVersion` is ours and optional: given, a stale one is 409 version_conflict.
 */
export const fieldPatchBody = fieldPatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), NON_EMPTY);

export const typeFieldArchiveArgs = z.object({ id: uuidSchema }).strict();
export type TypeFieldArchiveArgs = z.infer<typeof typeFieldArchiveArgs>;
/** DELETE /api/v1/type-fields/{id} archives; send `{}` or the `rowVersion` you saw. */
export const fieldArchiveBody = z.object({ rowVersion: z.number().int().min(1).optional() }).strict();

// ---------------------------------------------------------------------------------------------
// Place kinds, brands, tags

export const placeKindCreateArgs = z.object({ id: uuidSchema, name, icon: icon.optional() }).strict();
export type PlaceKindCreateArgs = z.infer<typeof placeKindCreateArgs>;
export const placeKindCreateBody = placeKindCreateArgs.partial({ id: true });
const placeKindPatchShape = z.object({ name, icon, archived: z.boolean() }).partial().strict();
export const placeKindUpdateArgs = z.object({ id: uuidSchema, patch: placeKindPatchShape.refine(nonEmpty, NON_EMPTY) }).strict();
export type PlaceKindUpdateArgs = z.infer<typeof placeKindUpdateArgs>;

export const brandCreateArgs = z.object({ id: uuidSchema, name }).strict();
export type BrandCreateArgs = z.infer<typeof brandCreateArgs>;
export const brandCreateBody = brandCreateArgs.partial({ id: true });

export const tagCreateArgs = z.object({ id: uuidSchema, name, colour: colour.nullable().optional() }).strict();
export type TagCreateArgs = z.infer<typeof tagCreateArgs>;
export const tagCreateBody = tagCreateArgs.partial({ id: true });

// ---------------------------------------------------------------------------------------------
// Records

export const FIELD_VIA = ["own", "inherited", "group"] as const;

/** The spec's type field record; for a place-kind field `source` is `{typeId: <placeKindId>, via: "own"}`. */
export const typeFieldSchema = z
  .object({
    id: uuidSchema,
    key: z.string(),
    label: z.string().nullable(),
    labelKey: z.string().nullable(),
    kind: fieldKindSchema,
    unit: z.string().nullable(),
    options: z.array(z.string()).nullable(),
    repeatable: z.boolean(),
    required: z.boolean(),
    secret: z.boolean(),
    sort: z.number().int(),
    archivedAt: timestampSchema.nullable(),
    source: z.object({ typeId: uuidSchema, via: z.enum(FIELD_VIA) }),
    rowVersion: z.number().int(),
  })
  .meta({ id: "TypeField" });
export type TypeField = z.infer<typeof typeFieldSchema>;

export const typeSchema = z
  .object({
    id: uuidSchema,
    /** Null for a built-in type: `builtinKey` names it (the app translates). */
    name: z.string().nullable(),
    builtinKey: z.string().nullable(),
    icon: z.string(),
    parentId: uuidSchema.nullable(),
    groupIds: z.array(uuidSchema),
    isGroup: z.boolean(),
    containerByDefault: z.boolean(),
    archivedAt: timestampSchema.nullable(),
    rowVersion: z.number().int(),
    /** Every field the type has, its own, inherited and from its groups (archived ones flagged). */
    fields: z.array(typeFieldSchema),
  })
  .meta({ id: "Type" });
export type Type = z.infer<typeof typeSchema>;

export const placeKindSchema = z
  .object({
    id: uuidSchema,
    name: z.string().nullable(),
    builtinKey: z.string().nullable(),
    icon: z.string(),
    archivedAt: timestampSchema.nullable(),
    rowVersion: z.number().int(),
    fields: z.array(typeFieldSchema),
  })
  .meta({ id: "PlaceKind" });
export type PlaceKind = z.infer<typeof placeKindSchema>;

export const brandSchema = z.object({ id: uuidSchema, name: z.string(), rowVersion: z.number().int() }).meta({ id: "Brand" });
export type Brand = z.infer<typeof brandSchema>;

export const tagSchema = z.object({ id: uuidSchema, name: z.string(), colour: z.string().nullable(), rowVersion: z.number().int() }).meta({ id: "Tag" });
export type Tag = z.infer<typeof tagSchema>;
