/**
 * CSV import as one batch through the write core (issue 31, findings 5-8): money cells read as
 * people write them and written in the shape money fields keep; a row the core refuses at write
 * time sinks the whole real run and is named by line, exactly as the dry run named it; bytes that
 * are not UTF-8 and an unclosed quote are problems by line with nothing written; the export's
 * things.csv imported into a new location gives back names a spreadsheet would run as formulas;
 * devices' shapes see the imported rows through the change log.
 */
import yauzl from "yauzl";
import { describe, expect } from "vitest";
import { rows, sql } from "../../../server/db/client.js";
import { exportWorker } from "../../support/export-zip.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { typeWithFields } from "../../support/secrets.js";

type Result = { dryRun: boolean; rows: number; ok: number; created: number; placesCreated: number; errors: { line: number; reason: string }[] };

async function post(svc: TestService, c: Client, loc: string, csv: string | Buffer, dryRun: boolean) {
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${svc.url}/api/v1/locations/${loc}/imports/csv?dryRun=${dryRun}`, {
    method: "POST",
    headers: { cookie, origin: svc.config.publicUrl.origin, "content-type": "text/csv" },
    body: typeof csv === "string" ? csv : new Uint8Array(csv),
  });
  const body = (await res.json()) as Result;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const names = async (svc: TestService, loc: string) =>
  (await rows<{ name: string }>(svc.database.db, sql`SELECT name FROM things WHERE location_id = ${loc} AND deleted_at IS NULL ORDER BY name`)).map(
    (r) => r.name,
  );
const placeCount = async (svc: TestService, loc: string) =>
  (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM places WHERE location_id = ${loc}`))[0]!.n;

describe("CSV import: one check for both runs, one batch", () => {
  test("5: money cells as people write them are ready in the dry run and written by the real run as {amount, currency}", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Money" })).body.id as string;
    await typeWithFields(svc.database.db, loc, "Gadget", [{ key: "price", kind: "money" }]);
    const csv = 'name,type,price\nLamp,Gadget,25 EUR\nKettle,Gadget,€19.90\nChair,Gadget,"1,234.50 EUR"\nDesk,Gadget,"25,50 €"\n';
    const dry = await post(svc, as.owner, loc, csv, true);
    expect(dry).toEqual({ dryRun: true, rows: 4, ok: 4, created: 0, placesCreated: 0, errors: [] });
    const real = await post(svc, as.owner, loc, csv, false);
    expect(real).toEqual({ dryRun: false, rows: 4, ok: 4, created: 4, placesCreated: 0, errors: [] });
    const prices = await rows<{ name: string; price: unknown }>(
      svc.database.db,
      sql`SELECT name, fields->'price' AS price FROM things WHERE location_id = ${loc} ORDER BY name`,
    );
    expect(prices).toEqual([
      { name: "Chair", price: { amount: "1234.50", currency: "EUR" } },
      { name: "Desk", price: { amount: "25.50", currency: "EUR" } },
      { name: "Kettle", price: { amount: "19.90", currency: "EUR" } },
      { name: "Lamp", price: { amount: "25", currency: "EUR" } },
    ]);
    // The location's money is in euros now: an amount with no currency is taken as euros; `$` is not.
    const more = await post(svc, as.owner, loc, 'name,type,price\nMug,Gadget,4.5\nCup,Gadget,$3\nBowl,Gadget,"1,234"\n', true);
    expect(more.errors).toEqual([
      { line: 3, reason: expect.stringMatching(/"price": "\$" could be one of several currencies/) as unknown },
      { line: 4, reason: expect.stringMatching(/could be 1234 or 1\.234/) as unknown },
    ]);
    expect(more.ok).toBe(1);
  });

  test("5: a row the write core refuses sinks the real run, named by line as in the dry run; the other rows are not written", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Refused" })).body.id as string;
    await typeWithFields(svc.database.db, loc, "Shirt", [
      { key: "size", kind: "select", options: ["S", "M", "L"] },
      { key: "bought", kind: "date" },
    ]);
    const csv =
      "name,type,size,bought,place\nRed,Shirt,M,2024-01-02,Closet\nBlue,Shirt,XXL,,Closet / Shelf\nGreen,Shirt,S,2024-13-40,\nWhite,Shirt,L,,Drawer\n";
    const before = await placeCount(svc, loc);
    const dry = await post(svc, as.owner, loc, csv, true);
    expect(dry.ok).toBe(2);
    expect(dry.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(dry.errors[0]!.reason).toMatch(/size: must be one of the field's options/);
    expect(dry.errors[1]!.reason).toMatch(/bought: must be a date/);
    const real = await post(svc, as.owner, loc, csv, false);
    expect(real).toEqual({ ...dry, dryRun: false, created: 0, placesCreated: 0 });
    expect(await names(svc, loc)).toEqual([]);
    expect(await placeCount(svc, loc)).toBe(before);
  });

  test("6: bytes that are not UTF-8 and an unclosed quote are problems by line, and nothing is written", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Bytes" })).body.id as string;
    const cases: [string, Buffer, number, RegExp][] = [
      ["FF FE C3 28", Buffer.concat([Buffer.from("name\nTowel\n"), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from("\nSoap\n")]), 3, /not UTF-8/],
      ["CESU ED A0 80", Buffer.concat([Buffer.from("name\n"), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from("\n")]), 2, /not UTF-8/],
      ["an unclosed quote", Buffer.from('name,quantity\n"Tent,1\nTowel,2\n'), 2, /a quote opened here is never closed/],
    ];
    for (const [what, body, line, why] of cases)
      for (const dryRun of [true, false]) {
        const res = await post(svc, as.owner, loc, body, dryRun);
        expect(res.errors, what).toEqual([{ line, reason: expect.stringMatching(why) as unknown }]);
        expect(res.created).toBe(0);
      }
    expect(await names(svc, loc)).toEqual([]);
    // A UTF-8 byte-order mark is fine, and not part of the first column's name.
    expect(await post(svc, as.owner, loc, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("name\nكتاب\n")]), false)).toMatchObject({
      created: 1,
      errors: [],
    });
    expect(await names(svc, loc)).toEqual(["كتاب"]);
  });

  test("7: the export's things.csv imported into a new location keeps names a spreadsheet would run as formulas", async ({ svc, as }) => {
    const from = (await as.owner.post("/api/v1/locations", { name: "Formulas" })).body.id as string;
    const typed = ["-1+2", "=SUM(A1)", "@home", "+49 phone", "'=quoted", "＝wide", "plain"];
    for (const name of typed) expect((await as.owner.post(`/api/v1/locations/${from}/things`, { name })).status).toBe(201);
    const made = await as.owner.post("/api/v1/exports", { scope: "location", locationId: from, options: { readable: true } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const worker = exportWorker(svc);
    expect(await worker.drain()).toBe(1);
    const cookie = [...as.owner.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const zip = Buffer.from(await (await fetch(`${svc.url}/api/v1/exports/${made.body.id}/file`, { headers: { cookie } })).arrayBuffer());
    const csv = await entry(zip, "things.csv");
    // Every formula lead is escaped in the file itself.
    for (const line of csv.split("\r\n").slice(1)) expect(line.split(",")[2] ?? "").not.toMatch(/^[=+\-@\uFF1D]/);
    expect(csv).toContain(",'-1+2,");
    const to = (await as.owner.post("/api/v1/locations", { name: "Imported" })).body.id as string;
    const res = await post(svc, as.owner, to, csv, false);
    expect(res).toMatchObject({ created: typed.length, errors: [] });
    expect(await names(svc, to)).toEqual(await names(svc, from));
    expect((await names(svc, to)).sort()).toEqual([...typed].sort());
  });

  test("8: the imported places and things reach a device's shapes through the change log, with no reload", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Shapes" })).body.id as string;
    // A device that has read its shapes to the end...
    const things = await shapeFrom(as.owner, "things");
    const places = await shapeFrom(as.owner, "places");
    expect(await post(svc, as.owner, loc, "name,place\nKayak,Shed / Rack\nPaddle,Shed\n", false)).toMatchObject({ created: 2, placesCreated: 2 });
    // ...reads on from where it was and is told of every imported row.
    const newThings = await shapeFrom(as.owner, "things", things.at);
    const newPlaces = await shapeFrom(as.owner, "places", places.at);
    expect(newThings.values.map((v) => [v.name, v.location_id]).sort()).toEqual([
      ["Kayak", loc],
      ["Paddle", loc],
    ]);
    expect(newThings.seen.every((m) => m.op === "insert")).toBe(true);
    expect(newPlaces.values.map((v) => v.name).sort()).toEqual(["Rack", "Shed"]);
    // A device waiting on a live request is woken by the import's commit.
    const at = (await shapeFrom(as.owner, "things")).at;
    const live = as.owner.get(`/api/v1/sync/shape/things?live=true&offset=${at.offset}&handle=${at.handle}`);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect(await post(svc, as.owner, loc, "name\nCanoe\n", false)).toMatchObject({ created: 1 });
    const woken = await live;
    expect(woken.status).toBe(200);
    expect((woken.body as { value?: { name: string } }[]).map((m) => m.value?.name).filter(Boolean)).toEqual(["Canoe"]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** One entry of a zip as text. */
function entry(zip: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err ?? new Error("no zip"));
      z.on("entry", (e: yauzl.Entry) => {
        if (e.fileName !== name) return z.readEntry();
        z.openReadStream(e, (e2, stream) => {
          if (e2 || !stream) return reject(e2 ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        });
      });
      z.on("end", () => reject(new Error(`${name} not in the zip`)));
      z.readEntry();
    });
  });
}

/** The shape's messages from `from` on (the whole shape when not given), until up to date. */
async function shapeFrom(c: Client, name: "things" | "places", from?: { offset: string; handle: string }) {
  let offset = from?.offset ?? "-1";
  let handle = from?.handle;
  const seen: { op: string; id: string }[] = [];
  const values: Record<string, unknown>[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await c.get(`/api/v1/sync/shape/${name}?offset=${offset}${handle ? `&handle=${handle}` : ""}`);
    expect(res.status).toBe(200);
    for (const m of res.body as { headers?: { operation?: string }; value?: Record<string, unknown> }[])
      if (m.headers?.operation && m.value) {
        seen.push({ op: m.headers.operation, id: String(m.value.id) });
        values.push(m.value);
      }
    offset = res.headers.get("electric-offset")!;
    handle = res.headers.get("electric-handle")!;
    if (res.headers.has("electric-up-to-date")) break;
  }
  return { seen, values, at: { offset, handle: handle! } };
}
