/**
 * CSV import of things (POST /api/v1/locations/{id}/imports/csv): the dry-run preview, places made
 * from paths, types and fields by name, every problem by line with nothing written, roles, tokens,
 * the size and row limits; and an exported things.csv read back by the same parser.
 */
import { describe, expect } from "vitest";
import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_MAX_ROWS, csvImportResultSchema } from "../../../shared/exports.js";
import { rows, sql } from "../../../server/db/client.js";
import { csvLine } from "../../../server/modules/exports/csv.js";
import { parseCsv } from "../../../server/modules/exports/csv-read.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { typeWithFields } from "../../support/secrets.js";

async function post(svc: TestService, c: Client | null, loc: string, csv: string, dryRun: boolean, headers: Record<string, string> = {}) {
  const cookie = c ? [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ") : "";
  const res = await fetch(`${svc.url}/api/v1/locations/${loc}/imports/csv?dryRun=${dryRun}`, {
    method: "POST",
    headers: { ...(cookie ? { cookie } : {}), origin: svc.config.publicUrl.origin, "content-type": "text/csv", ...headers },
    body: csv,
  });
  return { status: res.status, body: await res.json() };
}

const count = async (svc: TestService, loc: string, table: "things" | "places") =>
  (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE location_id = ${loc}`))[0]!.n;

describe("CSV import of things", () => {
  test("a dry run previews rows and places to make and writes nothing; the real run makes them through the write path", async ({ svc, loc, as }) => {
    await typeWithFields(svc.database.db, loc, "Book", [
      { key: "author", kind: "text" },
      { key: "pages", kind: "number" },
    ]);
    const csv = 'Name,Quantity,Place,Type,author,pages\r\nDune,2,House / Study / Shelf,Book,Frank Herbert,412\r\n"Tent, big",1,Garage,,,\r\nTowel,,,,,\r\n';
    const things = await count(svc, loc, "things");
    const places = await count(svc, loc, "places");
    const dry = await post(svc, as.member, loc, csv, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(csvImportResultSchema.parse(dry.body)).toEqual({ dryRun: true, rows: 3, ok: 3, created: 0, placesCreated: 4, errors: [] });
    expect(await count(svc, loc, "things")).toBe(things);
    expect(await count(svc, loc, "places")).toBe(places);
    const real = await post(svc, as.member, loc, csv, false);
    expect(real.body).toEqual({ dryRun: false, rows: 3, ok: 3, created: 3, placesCreated: 4, errors: [] });
    const list = (await as.viewer.get(`/api/v1/locations/${loc}/things?limit=200`)).body.items as { id: string; name: string }[];
    const dune = (await as.viewer.get(`/api/v1/things/${list.find((t) => t.name === "Dune")!.id}`)).body;
    expect(dune).toMatchObject({ quantity: 2, fields: { author: "Frank Herbert", pages: 412 } });
    expect(list.map((t) => t.name)).toContain("Tent, big");
    // Made by the member through the normal path: each has its history entry.
    const [h] = await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM history_entries WHERE entity_id = ${dune.id}`);
    expect(h!.n).toBeGreaterThan(0);
    // Importing again reuses the places made the first time.
    expect((await post(svc, as.member, loc, csv, true)).body.placesCreated).toBe(0);
  });

  test("every problem is reported by line, and then nothing is written, dry run or not", async ({ svc, loc, as }) => {
    const csv = "name,quantity,type,colourful\nGood,1,,\n,1,,\nBad qty,-1,,\nNo type,1,Spaceship,\nOdd,1,,yes\n";
    const before = await count(svc, loc, "things");
    for (const dryRun of [true, false]) {
      const res = await post(svc, as.member, loc, csv, dryRun);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(1);
      expect(res.body.created).toBe(0);
      expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6]);
      expect(res.body.errors[0].reason).toMatch(/name is empty/);
      expect(res.body.errors[1].reason).toMatch(/quantity/);
      expect(res.body.errors[2].reason).toMatch(/no type named "Spaceship"/);
      expect(res.body.errors[3].reason).toMatch(/colourful/);
    }
    expect(await count(svc, loc, "things")).toBe(before);
    expect((await post(svc, as.member, loc, "title,quantity\nx,1\n", true)).status).toBe(400);
  });

  test("viewers and outsiders cannot import; a token cannot reach the route", async ({ svc, loc, as }) => {
    expect((await post(svc, as.viewer, loc, "name\nx\n", false)).status).toBe(403);
    expect((await post(svc, as.outsider, loc, "name\nx\n", false)).status).toBe(404);
    const tok = await as.member.post("/api/v1/tokens", { name: "import script", scope: "write", locationIds: [loc] });
    expect((await post(svc, null, loc, "name\nx\n", false, { authorization: `Bearer ${tok.body.secret}` })).status).toBe(403);
  });

  test(`limits: ${CSV_IMPORT_MAX_ROWS} rows pass the check, one more is 400; more than ${CSV_IMPORT_MAX_BYTES} bytes is 413`, async ({ svc, loc, as }) => {
    const rowsOf = (n: number) => `name\n${Array.from({ length: n }, (_, i) => `T${i}`).join("\n")}\n`;
    const at = await post(svc, as.member, loc, rowsOf(CSV_IMPORT_MAX_ROWS), true);
    expect(at.status).toBe(200);
    expect(at.body.ok).toBe(CSV_IMPORT_MAX_ROWS);
    expect((await post(svc, as.member, loc, rowsOf(CSV_IMPORT_MAX_ROWS + 1), true)).status).toBe(400);
    expect((await post(svc, as.member, loc, `name\n${"x".repeat(CSV_IMPORT_MAX_BYTES)}\n`, true)).status).toBe(413);
  });

  test("the CSV writer and parser agree on quotes, commas, line breaks and formulas", () => {
    const cells = ['a "quoted", thing', "two\nlines", "=SUM(A1)", "-3", "plain"];
    expect(parseCsv(csvLine(cells) + csvLine(["x"])).map((r) => r.cells)).toEqual([['a "quoted", thing', "two\nlines", "'=SUM(A1)", "'-3", "plain"], ["x"]]);
  });
});
