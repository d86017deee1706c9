/**
 * The operations of the OpenAPI document, and valid values for their schemas; the seed of every random choice.
 */
import fc from "fast-check";
import { v7 as uuidv7 } from "uuid";
import { UUID_PATTERN } from "../../../shared/ids.js";
import { PROTOCOL } from "../../../sync/protocol.js";
import { PASSWORD } from "./http.js";
import type { IdKind } from "./ids.js";

/** The seed of every random choice the hostile suites make. */
export const SEED = 20_240_611;

export type Schema = Record<string, any>;

export interface Operation {
  key: string;
  method: string;
  /** OpenAPI template: /api/v1/things/{id} */
  path: string;
  auth: "required" | "optional" | "none";
  pathParams: string[];
  query: { name: string; required: boolean; schema: Schema }[];
  /** The JSON body's schema (with its own $defs), when the operation takes one. */
  body?: Schema;
  /** Id kinds of body fields this operation names its own way (an MCP tool's `id`). */
  ids?: (name: string) => IdKind | undefined;
}

/**
 * Every operation of the OpenAPI document at /api/v1/openapi.json that comes from our route
 * definitions (those with `x-auth-mode`). The ones described by hand (the auth library's, OAuth's,
 * /mcp, /health) have hand-written hostile sets. Each schema is handed on with the document's
 * named schemas as its `$defs`, so `deref` can follow its pointers.
 */
export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  const $defs = (doc.components?.schemas ?? {}) as Schema;
  const withDefs = (schema: Schema): Schema => ({ ...schema, $defs });
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, o] of Object.entries(methods)) {
      if (!o["x-auth-mode"]) continue;
      const params = ((o.parameters ?? []) as { name: string; in: string; required: boolean; schema: Schema }[]).map((p) => ({
        ...p,
        schema: withDefs(p.schema),
      }));
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        auth: o["x-auth-mode"],
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, required: p.required, schema: p.schema })),
        ...(o.requestBody?.content["application/json"] ? { body: withDefs(o.requestBody.content["application/json"].schema) } : {}),
      });
    }
  }
  return ops;
}

/** Follows a local $ref (#/$defs/X, or the document's #/components/schemas/X) against the schema that holds the $defs. */
export function deref(s: Schema, root: Schema): Schema {
  let out = s;
  for (let i = 0; out?.$ref && i < 10; i++) out = root.$defs?.[String(out.$ref).replace(/^#\/(\$defs|components\/schemas)\//, "")] ?? {};
  return out ?? {};
}

/** The non-null alternative of a nullable schema (anyOf [X, null]); the schema itself otherwise. */
export function mainOf(s: Schema, root: Schema): Schema {
  const d = deref(s, root);
  const alts = (d.anyOf ?? d.oneOf) as Schema[] | undefined;
  if (!alts) return d;
  const first = alts.map((a) => deref(a, root)).find((a) => a.type !== "null");
  return first ?? d;
}

export const nullable = (s: Schema, root: Schema) => ((deref(s, root).anyOf ?? []) as Schema[]).some((a) => deref(a, root).type === "null");
export const isUuid = (s: Schema) => s?.type === "string" && s.pattern === UUID_PATTERN.source;

export interface ExampleContext {
  /** The schema holding the $defs. */
  root: Schema;
  /** The rowVersion a write must carry. */
  rowVersion: number;
  /** The id a uuid field named `name` gets. */
  idFor(name: string): string;
}

let made = 0;

/** A string that matches the schema's pattern and lengths, the same one every run. */
function matching(m: Schema): string {
  const found = fc.sample(
    fc.stringMatching(new RegExp(m.pattern as string)).filter((x) => x.length >= (m.minLength ?? 0) && x.length <= (m.maxLength ?? Infinity)),
    { seed: SEED, numRuns: 1 },
  )[0];
  if (found === undefined) throw new Error(`no example for pattern ${m.pattern}`);
  return found;
}

/** A valid value for `s`: required properties only (and one optional one when nothing else is required), ids from `cx.idFor`. */
export function exampleOf(s: Schema, name: string, cx: ExampleContext): unknown {
  const m = mainOf(s, cx.root);
  if ("const" in m) return m.const;
  if (m.enum) return m.enum[0];
  switch (m.type) {
    case "string": {
      if (isUuid(m)) return cx.idFor(name);
      if (m.format === "email") return `someone${++made}-${Date.now()}@example.test`;
      if (m.format === "date-time") return new Date(Date.now() + 86_400_000).toISOString();
      if (m.format === "date") return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      if (name === "password" || name === "currentPassword") return PASSWORD;
      if (name === "newPassword") return `${PASSWORD} again`;
      if (name === "username") return `someone_${++made}_${uuidv7().slice(-6)}`;
      if (m.pattern) return matching(m);
      const text = `Some ${name} ${++made}`;
      return text.padEnd(m.minLength ?? 0, "x").slice(0, m.maxLength ?? text.length);
    }
    case "integer":
      if (name === "rowVersion" || name === "baseVersion") return cx.rowVersion;
      if (name === "protocol") return PROTOCOL;
      return Math.max(m.minimum ?? 1, 1);
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: Math.max(m.minItems ?? 0, 0) }, () => exampleOf(m.items ?? {}, name, cx));
    case "object": {
      const props = (m.properties ?? {}) as Record<string, Schema>;
      const required = (m.required ?? []) as string[];
      const out: Record<string, unknown> = {};
      for (const k of required) out[k] = exampleOf(props[k]!, k, cx);
      if (!required.some((k) => k !== "rowVersion")) {
        const optional = Object.keys(props).find((k) => !required.includes(k) && mainOf(props[k]!, cx.root).type === "string");
        if (optional) out[optional] = exampleOf(props[optional]!, optional, cx);
      }
      return out;
    }
    default:
      return {};
  }
}
