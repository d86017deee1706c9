/**
 * server/http/openapi-schemas.ts: named zod schemas land once in components.schemas and every
 * pointer reaches them from the document's root.
 */
import { expect, test } from "vitest";
import { z } from "zod";
import { SchemaComponents } from "../../server/http/openapi-schemas.js";

const tag = z.object({ id: z.string(), name: z.string() }).meta({ id: "UnitTag" });
const thing = z.object({ name: z.string(), tags: z.array(tag), quantity: z.number().default(1) }).meta({ id: "UnitThing" });

test("a named schema is moved to components.schemas and pointed at from the root, nested ones too", () => {
  const c = new SchemaComponents();
  const list = c.of(z.object({ items: z.array(thing) }), "output");
  expect(JSON.stringify(list)).toContain('"$ref":"#/components/schemas/UnitThing"');
  expect(JSON.stringify(list)).not.toContain("$defs");
  expect(list).not.toHaveProperty("$schema");
  expect(JSON.stringify(c.schemas.UnitThing)).toContain('"$ref":"#/components/schemas/UnitTag"');
  expect(c.schemas.UnitTag).toMatchObject({ type: "object", required: ["id", "name"] });
  // Met again, the same schema is the same component.
  expect(c.of(thing, "output")).toEqual({ $ref: "#/components/schemas/UnitThing" });
  expect(Object.keys(c.schemas).sort()).toEqual(["UnitTag", "UnitThing"]);
});

test("where the input form differs (a default makes a field optional), it is kept as NameInput", () => {
  const c = new SchemaComponents();
  c.of(thing, "output");
  expect(c.of(thing, "input")).toEqual({ $ref: "#/components/schemas/UnitThingInput" });
  expect(c.schemas.UnitThing?.required).toContain("quantity");
  expect(c.schemas.UnitThingInput?.required).not.toContain("quantity");
  // Its tags are the input form of UnitTag too (which, unlike the output, lets unknown keys through).
  expect(JSON.stringify(c.schemas.UnitThingInput)).toContain('"$ref":"#/components/schemas/UnitTagInput"');
  expect(c.schemas.UnitTagInput).not.toHaveProperty("additionalProperties");
  // Met only as input, a schema keeps its own name.
  expect(new SchemaComponents().of(tag, "input")).toEqual({ $ref: "#/components/schemas/UnitTag" });
});

test("two different schemas under one name are refused, naming it", () => {
  const c = new SchemaComponents();
  c.of(z.object({ a: z.string() }).meta({ id: "UnitTwice" }), "output");
  expect(() => c.of(z.object({ b: z.number() }).meta({ id: "UnitTwice" }), "output")).toThrow(/UnitTwice/);
});
