import { z } from "zod";

/** Kinds of field a type or a place kind can define (the `kind` column of type_fields). */
export const FIELD_KINDS = ["text", "number", "date", "select", "multi_select", "boolean", "url", "money", "person", "vendor", "file"] as const;
export const fieldKindSchema = z.enum(FIELD_KINDS);
export type FieldKind = z.infer<typeof fieldKindSchema>;
