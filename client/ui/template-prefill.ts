/**
 * What a template pre-fills in Capture. A template's `payload` holds the values of the thing it was
 * saved from: custom field values under `fields` (with attributes such as `name` beside them), or,
 * read leniently, the field values themselves at the top level.
 */
const ATTRIBUTES = new Set([
  "name",
  "description",
  "quantity",
  "lifecycle",
  "condition",
  "brandId",
  "model",
  "colour",
  "serial",
  "isContainer",
  "tagIds",
  "typeId",
]);

export interface Prefill {
  name?: string;
  fields: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function templatePrefill(payload: unknown): Prefill {
  if (!isObject(payload)) return { fields: {} };
  const name = typeof payload.name === "string" && payload.name.trim() ? { name: payload.name } : {};
  if (isObject(payload.fields)) return { ...name, fields: { ...payload.fields } };
  const fields = Object.fromEntries(Object.entries(payload).filter(([k]) => !ATTRIBUTES.has(k) && k !== "fields"));
  return { ...name, fields };
}
