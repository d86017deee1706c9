/**
 * Property (issue 31, finding 5): for random CSVs (valid and invalid cells in name, quantity,
 * place, type, money, select, date and text columns), the real run writes exactly the rows the
 * dry run called ready, or nothing; and nothing whenever the dry run reported any problem. The
 * two runs report the same problems, by line. The runs share one location, whose places and money
 * (so its currency) grow as runs write; each real run follows its dry run on the same state. A few
 * seconds on PGlite.
 */
import fc from "fast-check";
import { describe, expect } from "vitest";
import { rows, sql } from "../../../server/db/client.js";
import { csvLine } from "../../../server/modules/exports/csv.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { typeWithFields } from "../../support/secrets.js";

type Result = { dryRun: boolean; rows: number; ok: number; created: number; placesCreated: number; errors: { line: number; reason: string }[] };

async function post(svc: TestService, c: Client, loc: string, csv: string, dryRun: boolean): Promise<Result> {
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${svc.url}/api/v1/locations/${loc}/imports/csv?dryRun=${dryRun}`, {
    method: "POST",
    headers: { cookie, origin: svc.config.publicUrl.origin, "content-type": "text/csv" },
    body: csv,
  });
  const body = (await res.json()) as Result;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const state = async (svc: TestService, loc: string) => {
  const [r] = await rows<{ things: string[]; places: number }>(
    svc.database.db,
    sql`SELECT coalesce((SELECT array_agg(name ORDER BY name) FROM things WHERE location_id = ${loc}), '{}') AS things,
               (SELECT count(*)::int FROM places WHERE location_id = ${loc}) AS places`,
  );
  return r!;
};

const HEADER = ["name", "quantity", "place", "type", "price", "size", "bought", "note"];
/** Cells, each column a mix of what should pass and what should not (some only the write core refuses). */
const cell = {
  name: fc.oneof(
    { weight: 30, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,11}$/) },
    { weight: 6, arbitrary: fc.constantFrom("-1+2", "=SUM(A1)", "@home", "Tent, big", 'say "hi"', "كتاب") },
    { weight: 1, arbitrary: fc.constantFrom("", "   ", "x".repeat(201), "bad\u0000nul") },
  ),
  quantity: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom("", "1", "2.5", "3,5", "10") },
    { weight: 1, arbitrary: fc.constantFrom("0", "-1", "abc", "1e12") },
  ),
  place: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom("", "Shed", "Shed / Rack", "House/Kitchen", "house / kitchen / drawer") },
    { weight: 1, arbitrary: fc.constant(`Hall / ${"p".repeat(121)}`) },
  ),
  type: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom("Gear", "gear") },
    { weight: 4, arbitrary: fc.constantFrom("", "thing") },
    { weight: 1, arbitrary: fc.constant("Spaceship") },
  ),
  price: fc.oneof(
    { weight: 10, arbitrary: fc.constant("") },
    { weight: 20, arbitrary: fc.constantFrom("25 EUR", "€3.50", "1,234.50 USD", "EUR 7", "9,99 €", "£12", "0.5 GBP") },
    { weight: 1, arbitrary: fc.constantFrom("1,234 EUR", "$5", "25", "abc", "12 XYZ", "EUR 1 USD") },
  ),
  size: fc.oneof({ weight: 30, arbitrary: fc.constantFrom("", "S", "M", "L") }, { weight: 1, arbitrary: fc.constant("XXL") }),
  bought: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom("", "2024-01-02", "1999-12-31") },
    { weight: 1, arbitrary: fc.constantFrom("2024-13-40", "yesterday") },
  ),
  note: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom("", "fragile", "=cmd|' /C calc'!A0", "two\nlines") },
    { weight: 1, arbitrary: fc.constant("n".repeat(4001)) },
  ),
};
/** Field cells stay empty on most rows whose type has no such fields (else nearly every CSV has a problem). */
const row = fc
  .tuple(cell.name, cell.quantity, cell.place, cell.type, cell.price, cell.size, cell.bought, cell.note, fc.integer({ min: 0, max: 9 }))
  .map(([name, quantity, place, type, price, size, bought, note, stray]) => {
    const keep = /^gear$/i.test(type) || stray === 0;
    return [name, quantity, place, type, ...(keep ? [price, size, bought, note] : ["", "", "", ""])];
  });

describe("CSV import: dry run and real run agree", () => {
  test("for random CSVs the real run writes exactly the rows the dry run called ready, or nothing", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Property" })).body.id as string;
    await typeWithFields(svc.database.db, loc, "Gear", [
      { key: "price", kind: "money" },
      { key: "size", kind: "select", options: ["S", "M", "L"] },
      { key: "bought", kind: "date" },
      { key: "note", kind: "text" },
    ]);
    const tally = { runs: 0, clean: 0, refused: 0, writeTime: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 5 }), async (body) => {
        const csv = csvLine(HEADER) + body.map((r) => csvLine(r)).join("");
        const before = await state(svc, loc);
        const dry = await post(svc, as.owner, loc, csv, true);
        expect(await state(svc, loc)).toEqual(before);
        const real = await post(svc, as.owner, loc, csv, false);
        const after = await state(svc, loc);
        tally.runs++;
        // The same check: the same problems, by line, and the same count of ready rows.
        expect(real.errors).toEqual(dry.errors);
        expect(real.ok).toBe(dry.ok);
        if (dry.errors.length) {
          tally.refused++;
          // A row passing the cell checks but refused by the write core: the case that used to be half-written.
          if (dry.errors.some((e) => /size|bought|note/.test(e.reason) && !/not a field/.test(e.reason))) tally.writeTime++;
          expect(real).toMatchObject({ created: 0, placesCreated: 0 });
          expect(after).toEqual(before);
        } else {
          tally.clean++;
          expect(dry.ok).toBe(body.length);
          expect(real).toMatchObject({ created: dry.ok, placesCreated: dry.placesCreated });
          expect([...after.things].sort()).toEqual([...before.things, ...body.map((r) => r[0]!.trim())].sort());
          expect(after.places - before.places).toBe(dry.placesCreated);
        }
      }),
      { numRuns: 30 },
    );
    console.log(
      `CSV import property: ${tally.runs} random CSVs, ${tally.clean} written whole, ${tally.refused} refused whole (${tally.writeTime} by the write core)`,
    );
    expect(tally.clean).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });
});
