/**
 * Converting a field to or from secret keeps every value (issue 13 "Done when"): over random
 * values of every kind, some of which cannot take the new form (left from before a rule changed),
 * each value ends up in the new form (encrypted in secret_values, or in the thing's fields) or, if
 * it cannot, as a "<label>: <value>" line in the thing's notes; the preview's counts say exactly
 * that beforehand; and converting back returns the values that moved.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../../server/db/client.js";
import { secretValues } from "../../../server/db/schema/index.js";
import { notesLine } from "../../../server/modules/secrets/conversion.js";
import { SecretBox } from "../../../server/db/secret-box.js";
import { apiTest as test } from "../../support/fixtures.js";
import { typeWithFields, type FieldSpec } from "../../support/secrets.js";

const OPTIONS = ["red", "green", "blue"];

/** Per kind (and one repeatable field): values that fit it, and values that do not. */
const KINDS: { spec: Omit<FieldSpec, "key">; fits: fc.Arbitrary<unknown>; misfits: fc.Arbitrary<unknown> }[] = [
  { spec: { kind: "text" }, fits: fc.string({ maxLength: 40 }), misfits: fc.integer() },
  { spec: { kind: "person" }, fits: fc.string({ minLength: 1, maxLength: 20 }), misfits: fc.boolean() },
  { spec: { kind: "vendor" }, fits: fc.string({ minLength: 1, maxLength: 20 }), misfits: fc.constant({ name: "Acme" }) },
  {
    spec: { kind: "number" },
    fits: fc.oneof(
      fc.integer(),
      fc.integer({ min: -99999, max: 99999 }).map((n) => `${n}.25`),
    ),
    misfits: fc.string({ minLength: 1, maxLength: 8 }).map((s) => `n/${s}`),
  },
  {
    spec: { kind: "date" },
    fits: fc.date({ min: new Date("1990-01-01"), max: new Date("2090-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    misfits: fc.constantFrom("yesterday", "2026-13-45", "31/12/2026"),
  },
  { spec: { kind: "boolean" }, fits: fc.boolean(), misfits: fc.constantFrom("yes", "no", 1) },
  {
    spec: { kind: "url" },
    fits: fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `https://example.test/${s}`),
    misfits: fc.constantFrom("ftp://example.test/x", "javascript:alert(1)", "not a url"),
  },
  { spec: { kind: "select", options: OPTIONS }, fits: fc.constantFrom(...OPTIONS), misfits: fc.constantFrom("purple", "") },
  { spec: { kind: "multi_select", options: OPTIONS }, fits: fc.subarray(OPTIONS), misfits: fc.constant(["purple"]) },
  {
    spec: { kind: "money" },
    fits: fc.record({ amount: fc.integer({ min: 0, max: 99999 }).map((n) => `${n}.50`), currency: fc.constantFrom("EUR", "USD", "JPY") }),
    misfits: fc.constantFrom({ amount: 5, currency: "EUR" }, "12 EUR"),
  },
  { spec: { kind: "file" }, fits: fc.uuid(), misfits: fc.constantFrom("photo.jpg", 42) },
  {
    spec: { kind: "text", repeatable: true },
    fits: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
    misfits: fc.string({ minLength: 1, maxLength: 10 }),
  },
];

/** One case: a field of one kind, starting plain or secret, and each thing's value (and whether it fits). */
const caseArb = fc.nat({ max: KINDS.length - 1 }).chain((k) =>
  fc.record({
    kind: fc.constant(k),
    startSecret: fc.boolean(),
    values: fc.array(
      fc.oneof(
        { weight: 3, arbitrary: KINDS[k]!.fits.map((value) => ({ value, fits: true })) },
        { weight: 1, arbitrary: KINDS[k]!.misfits.map((value) => ({ value, fits: false })) },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    description: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
  }),
);

describe("converting a field to or from secret keeps every value", () => {
  test("property: every value ends up in the new form or in the notes, as the preview said; converting back returns them", async ({ svc, loc, as }) => {
    const db = svc.database.db;
    const box = new SecretBox(svc.config.secret);
    const [acc] = await rows<{ account_id: string }>(db, sql`SELECT account_id FROM locations WHERE id = ${loc}`);
    const accountId = acc!.account_id;
    let run = 0;

    /** The things' state: fields, notes, and the decrypted secret value (undefined when none). */
    const state = async (ids: string[], fieldId: string) => {
      const things = await rows<{ id: string; fields: Record<string, unknown>; description: string | null; row_version: number }>(
        db,
        sql`SELECT id, fields, description, row_version FROM things WHERE id = ANY(${`{${ids.join(",")}}`}::uuid[])`,
      );
      const secrets = await rows<{ thing_id: string; ciphertext: string }>(db, sql`SELECT thing_id, ciphertext FROM secret_values WHERE field_id = ${fieldId}`);
      const secretOf = new Map(
        secrets
          .filter((s) => s.ciphertext !== "")
          .map((s) => [s.thing_id, box.open({ accountId, entity: "thing", entityId: s.thing_id, fieldId }, s.ciphertext)]),
      );
      return new Map(things.map((t) => [t.id, { ...t, secret: secretOf.has(t.id) ? secretOf.get(t.id) : undefined }]));
    };

    await fc.assert(
      fc.asyncProperty(caseArb, async (generated) => {
        // As JSON carries them (fast-check's records have no prototype; stored values are plain JSON).
        const c = JSON.parse(JSON.stringify(generated)) as typeof generated;
        const k = KINDS[c.kind]!;
        const key = `f${++run}`;
        const label = `Field ${run}`;
        const { typeId, fieldIds } = await typeWithFields(db, loc, `Kind ${run}`, [{ ...k.spec, key, label, secret: c.startSecret }]);
        const fieldId = fieldIds[key]!;
        const field = { key, label };
        // Things made through the API, then given their (possibly no longer valid) values as older data would hold them.
        const ids: string[] = [];
        for (const { value } of c.values) {
          const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: `Thing ${run}`, typeId });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          const id = made.body.id as string;
          ids.push(id);
          await db.execute(sql`UPDATE things SET description = ${c.description} WHERE id = ${id}`);
          if (c.startSecret)
            await db.insert(secretValues).values({
              id: uuidv7(),
              locationId: loc,
              thingId: id,
              fieldId,
              ciphertext: box.seal({ accountId, entity: "thing", entityId: id, fieldId }, value),
            });
          else await db.execute(sql`UPDATE things SET fields = jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb) WHERE id = ${id}`);
        }
        const fitting = c.values.filter((v) => v.fits).length;

        const toSecret = !c.startSecret;
        const preview = await as.owner.post(`/api/v1/type-fields/${fieldId}/convert/preview`, { toSecret });
        expect(preview.status, JSON.stringify(preview.body)).toBe(200);
        expect(preview.body.total).toBe(c.values.length);
        expect(preview.body.locations).toEqual([
          expect.objectContaining({ id: loc, values: c.values.length, convertible: fitting, toNotes: c.values.length - fitting }),
        ]);

        const done = await as.owner.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(done.body).toMatchObject({ secret: toSecret, total: c.values.length });
        const after = await state(ids, fieldId);
        c.values.forEach(({ value, fits }, i) => {
          const t = after.get(ids[i]!)!;
          expect(t.row_version).toBe(2);
          const inFields = key in t.fields;
          if (fits) {
            // In the new form, and only there.
            if (toSecret) expect([inFields, isDeepStrictEqual(t.secret, value)]).toEqual([false, true]);
            else expect([isDeepStrictEqual(t.fields[key], value), t.secret]).toEqual([true, undefined]);
            expect(t.description).toBe(c.description);
          } else {
            expect([inFields, t.secret]).toEqual([false, undefined]);
            expect(t.description).toBe(c.description ? `${c.description}\n${notesLine(field, value)}` : notesLine(field, value));
          }
        });

        // Back again: what moved comes back; what went to the notes stays there.
        const back = await as.owner.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret: !toSecret });
        expect(back.status, JSON.stringify(back.body)).toBe(200);
        expect(back.body.total).toBe(fitting);
        const again = await state(ids, fieldId);
        c.values.forEach(({ value, fits }, i) => {
          const t = again.get(ids[i]!)!;
          if (!fits) return expect([key in t.fields, t.secret, t.row_version]).toEqual([false, undefined, 2]);
          expect(t.row_version).toBe(3);
          if (c.startSecret) expect([key in t.fields, isDeepStrictEqual(t.secret, value)]).toEqual([false, true]);
          else expect([isDeepStrictEqual(t.fields[key], value), t.secret]).toEqual([true, undefined]);
        });
      }),
      { numRuns: 25, seed: Number(process.env.FC_SEED ?? 1324) },
    );
  }, 240_000);
});
