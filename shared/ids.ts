import { z } from "zod";

/** The spec's uuid pattern (versions 1-8, plus the nil and max uuids). */
export const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/**
 * A uuid as the spec writes it, in either case (or mixed), read as its lower-case form: the one the
 * server mints and the database answers. Every id a request carries (path, query, body, a pushed
 * op's args) is parsed here, so comparisons and Map keys in the code see one spelling of each id.
 */
export const uuidSchema = z.string().regex(UUID_PATTERN, "must be a uuid").toLowerCase();
export type Uuid = z.infer<typeof uuidSchema>;

/** Timestamps leave the server as ISO 8601 UTC strings ending in Z. */
export const timestampSchema = z.string().meta({ format: "date-time" });

/** A numeric column's text without the zeros it pads with: "3.000" -> "3", "0.00022800" -> "0.000228". */
export function trimDecimal(value: string): string {
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

/** Decimal strings for quantities, amounts and readings (DESIGN.md data conventions). */
export const decimalSchema = z.string().regex(/^-?\d{1,11}(\.\d{1,3})?$/, "must be a decimal number with at most 3 decimals");
