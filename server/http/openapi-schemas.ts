/**
 * JSON Schemas for the OpenAPI document, from the shared zod schemas. zod puts each named schema
 * (`.meta({ id })`) under the converted schema's own `$defs` and points at it with `#/$defs/Name`;
 * in an OpenAPI document such a pointer is read from the document's root, where no `$defs` is. So
 * every named schema is moved to `components.schemas` once and every pointer rewritten to it.
 */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const DEFS = "#/$defs/";
const COMPONENTS = "#/components/schemas/";

/** Rewrites `#/$defs/X` pointers to `#/components/schemas/<name of X>`, everywhere in `value`. */
function repoint(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => repoint(v, names));
  if (!value || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith(DEFS)) {
      const def = v.slice(DEFS.length);
      out[k] = COMPONENTS + (names.get(def) ?? def);
    } else out[k] = repoint(v, names);
  }
  return out;
}

/**
 * Collects the named schemas of every schema it converts. A name met again must mean the same
 * schema; where the input form of a schema differs from its output form (a default makes a field
 * optional on the way in), the input one is kept as `NameInput`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  of(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
    return this.hoist(converted, io === "input" ? "Input" : "");
  }

  /** Moves the `$defs` of a converted schema into `schemas` and points the rest at them. */
  private hoist(converted: JsonSchema, suffix = ""): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = converted;
    const defs = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    // A def's name depends on its content, and its content on the names of the defs it points
    // at (Thing's input form points at TagInput): settle the names first, then store.
    let names = new Map(defs.map(([name]) => [name, name]));
    for (let round = 0; round <= defs.length; round++) {
      const next = new Map(defs.map(([name, def]) => [name, this.nameFor(name, JSON.stringify(repoint(def, names)), suffix)]));
      const settled = [...next].every(([k, v]) => names.get(k) === v);
      names = next;
      if (settled) break;
    }
    for (const [name, def] of defs) this.schemas[names.get(name)!] ??= repoint(def, names) as JsonSchema;
    return repoint(rest, names) as JsonSchema;
  }

  private nameFor(name: string, content: string, suffix: string): string {
    for (const candidate of [name, name + suffix]) {
      const held = this.schemas[candidate];
      if (held === undefined || JSON.stringify(held) === content) return candidate;
    }
    throw new Error(`Two different schemas are named ${name} (.meta({ id })): give one of them another id.`);
  }
}
