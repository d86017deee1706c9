/**
 * Hostile zips against the restore route (POST /api/v1/locations/{id}/imports): bombs (one big
 * entry, record files adding up past the total, a small entry of a huge ratio), the hashes of
 * another tenant's bytes, text the database cannot keep, record files that are not JSON, a body
 * that is not a zip. Each is a 4xx that names what is wrong, and the database is as it was; a file
 * record whose bytes are not in the zip is never restored, so knowing a hash reads nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect } from "vitest";
import { rows, sql } from "../../../server/db/client.js";
import { things as thingsTable } from "../../../server/db/schema/index.js";
import { MAX_INFLATE_RATIO, MAX_RECORD_FILE_BYTES, MAX_RECORDS_BYTES } from "../../../server/modules/exports/zip-read.js";
import { entries, exportedZip, zipOf } from "../../support/export-zip.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { changedMetrics, PNG as OTHER_PNG, snapshotter } from "../../support/hostile.js";
import { PNG, raw } from "../../support/rich-location.js";

const MiB = 1024 * 1024;
const tried = { refused: 0, bombs: 0, foreignHashes: 0, badText: 0, badValues: 0, notJson: 0, notZip: 0 };
afterAll(() => {
  console.log(
    `restore hostile cases: ${tried.refused} refused with a 4xx and nothing written (bombs ${tried.bombs}, bad text ${tried.badText}, bad values ${tried.badValues}, not JSON ${tried.notJson}, not a zip ${tried.notZip}); other tenants' hashes ${tried.foreignHashes}, none readable`,
  );
});

const exported = async (svc: TestService, c: Client, loc: string) => entries(await exportedZip(svc, c, loc));

/** A thing with a photo as its cover and in its photos, in `loc`. */
async function thingWithPhoto(svc: TestService, c: Client, loc: string, bytes: Buffer) {
  const thing = (await c.post(`/api/v1/locations/${loc}/things`, { name: "Camera" })).body.id as string;
  const up = await raw(svc, c, "POST", `/api/v1/files?locationId=${loc}`, bytes, { "content-type": "application/octet-stream" });
  expect(up.status, up.bytes.toString()).toBe(201);
  const file = up.json().id as string;
  await svc.database.db
    .update(thingsTable)
    .set({ coverFileId: file, photoFileIds: [file] })
    .where(eq(thingsTable.id, thing));
  return { thing, file };
}

/** `[` + `size` bytes of whitespace + `]`: `noise` of the bytes are tabs and newlines, which sets how well it packs. */
function whitespaceList(size: number, noise: number): Buffer {
  const block = Buffer.alloc(MiB, 0x20);
  const ws = [0x09, 0x0a, 0x0d];
  let seed = 7;
  for (let i = 0; i < MiB; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    if (seed / 2 ** 31 < noise) block[i] = ws[seed % 3]!;
  }
  const out = Buffer.alloc(size + 2, 0x20);
  for (let at = 1; at < size + 1; at += MiB) block.copy(out, at, 0, Math.min(MiB, size + 1 - at));
  out[0] = 0x5b;
  out[size + 1] = 0x5d;
  return out;
}

const rowsOf = (files: Map<string, Buffer>, table: string) => JSON.parse(files.get(`records/${table}.json`)!.toString()) as Record<string, unknown>[];
const withRows = (files: Map<string, Buffer>, table: string, list: unknown[]) => new Map(files).set(`records/${table}.json`, Buffer.from(JSON.stringify(list)));

describe("hostile restores", () => {
  test("each crafted zip is a 4xx naming what is wrong, and nothing is written", async ({ svc }) => {
    const a = await svc.signedIn("Ada Attacker");
    const own = (await a.get("/api/v1/me")).body.locations[0].id as string;
    const { thing } = await thingWithPhoto(svc, a, own, PNG);
    const files = await exported(svc, a, own);
    const target = (await a.post("/api/v1/locations", { name: "Target" })).body.id as string;
    const snapshot = await snapshotter(svc.database.db);

    const refused = async (what: string, zip: Buffer, status: number, message: RegExp) => {
      const before = await snapshot();
      const res = await raw(svc, a, "POST", `/api/v1/locations/${target}/imports`, zip);
      expect(res.status, `${what}: ${res.bytes.toString().slice(0, 300)}`).toBe(status);
      expect(res.json().error.message, what).toMatch(message);
      expect(changedMetrics(before, await snapshot()), what).toEqual([]);
      tried.refused += 1;
    };
    const things = rowsOf(files, "things");
    const at = things.findIndex((r) => r.id === thing) + 1;
    const editedRow = (edit: (row: Record<string, unknown>) => void) =>
      zipOf(
        withRows(
          files,
          "things",
          things.map((r) => {
            if (r.id !== thing) return r;
            const copy = structuredClone(r);
            edit(copy);
            return copy;
          }),
        ),
      );

    // Bombs: a small entry of a huge ratio, one entry past its own limit, record files adding up past the total.
    const bomb = whitespaceList(64 * MiB, 0);
    await refused(
      "a 64 MiB run of spaces packed small",
      await zipOf(new Map(files).set("records/things.json", bomb)),
      413,
      new RegExp(`more than ${MAX_INFLATE_RATIO} times`),
    );
    tried.bombs += 1;
    const big = whitespaceList(MAX_RECORD_FILE_BYTES + MiB, 0.05);
    await refused(
      "one record file past its limit",
      await zipOf(new Map(files).set("records/places.json", big)),
      413,
      new RegExp(`past ${MAX_RECORD_FILE_BYTES / MiB} MiB`),
    );
    tried.bombs += 1;
    const medium = whitespaceList(MAX_RECORD_FILE_BYTES - MiB, 0.05);
    const many = new Map(files);
    for (const t of ["places", "things", "history_entries"]) many.set(`records/${t}.json`, medium);
    await refused("record files adding up past the total", await zipOf(many), 413, new RegExp(`past ${MAX_RECORDS_BYTES / MiB} MiB together`));
    tried.bombs += 1;
    const threeBombs = new Map(files);
    for (const t of ["places", "things", "meters"]) threeBombs.set(`records/${t}.json`, bomb);
    await refused("three bombs", await zipOf(threeBombs), 413, /zip bomb/);
    tried.bombs += 1;

    // Text the database cannot keep, named by file, row and field.
    for (const [what, edit, field] of [
      ["a NUL in a name", (r: Record<string, unknown>) => (r.name = "Cam\u0000era"), "name"],
      ["a lone surrogate in a name", (r: Record<string, unknown>) => (r.name = "Cam\ud800era"), "name"],
      ["a lone low surrogate in a field value", (r: Record<string, unknown>) => (r.fields = { note: "x\udc00" }), "fields.note"],
      ["a NUL in a key", (r: Record<string, unknown>) => (r.fields = { "no\u0000te": "x" }), "fields.no\u0000te"],
    ] as const) {
      await refused(
        what,
        await editedRow(edit),
        400,
        new RegExp(`^records/things\\.json, row ${at}, field ${field.replace("\u0000", "\\u0000")}: must not contain NUL`),
      );
      tried.badText += 1;
    }
    const notUtf8 = Buffer.concat([
      Buffer.from('[{"id":"'),
      Buffer.from(String(thing)),
      Buffer.from('","name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      Buffer.from('"}]'),
    ]);
    await refused("bytes that are not UTF-8", await zipOf(new Map(files).set("records/things.json", notUtf8)), 400, /records\/things\.json, row 1: not UTF-8/);
    tried.badText += 1;

    // Values of the wrong kind for their column: the database refuses them, the restore says which file.
    for (const [what, edit] of [
      ["a row version that is not a number", (r: Record<string, unknown>) => (r.row_version = "abc")],
      ["a quantity out of range", (r: Record<string, unknown>) => (r.quantity = 1e300)],
      ["no row version", (r: Record<string, unknown>) => (r.row_version = null)],
      ["a date that is no date", (r: Record<string, unknown>) => (r.created_at = "yesterday-ish")],
    ] as const) {
      await refused(what, await editedRow(edit), 400, /^records\/things\.json in the zip holds a value the database refuses/);
      tried.badValues += 1;
    }

    // Record files that are not JSON, or not a list of rows.
    for (const [what, text, message] of [
      ["prose", "this is not json", /records\/things\.json in the zip is not a JSON list/],
      ["a cut-off list", JSON.stringify(things).slice(0, -20), /not a JSON list|not JSON/],
      ["a row that is not JSON", `[{"id": "${thing}", "name": nope}]`, /records\/things\.json in the zip is not JSON \(row 1\)/],
      ["an object, not a list", JSON.stringify({ rows: things }), /not a JSON list/],
      ["a list of numbers", "[1, 2, 3]", /not a JSON list/],
      ["a row without an id", '[{"name": "x"}]', /not a list of rows with ids \(row 1\)/],
      ["a trailing comma", `${JSON.stringify(things).slice(0, -1)},]`, /not a JSON list/],
      ["two lists", `${JSON.stringify(things)}[]`, /not a JSON list/],
      ["a repeated id", JSON.stringify([...things, ...things]), /repeats an id/],
      ["a row past its limit", `[{"id": "${thing}", "name": "${randomBytes(4 * MiB).toString("base64")}"}]`, /larger than/],
    ] as const) {
      await refused(what, await zipOf(new Map(files).set("records/things.json", Buffer.from(text))), /larger than/.test(String(message)) ? 413 : 400, message);
      tried.notJson += 1;
    }
    await refused(
      "a manifest that is not JSON",
      await zipOf(new Map(files).set("manifest.json", Buffer.from("{"))),
      400,
      /manifest\.json in the zip is not JSON/,
    );
    tried.notJson += 1;

    // Bodies that are not a zip, or a broken one.
    const whole = await zipOf(files);
    for (const [what, body] of [
      ["plain text", Buffer.from("not a zip at all")],
      ["a cut-off zip", whole.subarray(0, Math.floor(whole.length / 2))],
      ["a zip with its middle zeroed", Buffer.concat([whole.subarray(0, 100), Buffer.alloc(200), whole.subarray(300)])],
      ["a PNG", PNG],
    ] as const) {
      await refused(what, body, 400, /zip/);
      tried.notZip += 1;
    }
    expect((await a.get(`/api/v1/locations/${target}/things`)).body.items).toEqual([]);
  });

  test("another tenant's hashes: a file record without its own bytes is never restored, and nothing of theirs is readable", async ({ svc }) => {
    const b = await svc.signedIn("Bea Victim");
    const theirs = (await b.get("/api/v1/me")).body.locations[0].id as string;
    const victim = await thingWithPhoto(svc, b, theirs, OTHER_PNG);
    const hash = createHash("sha256").update(OTHER_PNG).digest("hex");
    const a = await svc.signedIn("Ada Attacker");
    const own = (await a.get("/api/v1/me")).body.locations[0].id as string;
    const mine = await thingWithPhoto(svc, a, own, PNG);
    const files = await exported(svc, a, own);
    const fileRows = rowsOf(files, "files");
    expect(fileRows.length).toBe(1);
    const forged = fileRows.map((f) => ({ ...f, sha256: hash, size: OTHER_PNG.length }));

    // Bytes dropped, the hash set to the other tenant's: the record is left out and said so.
    const dropped = withRows(files, "files", forged);
    for (const name of [...dropped.keys()]) if (name.startsWith("files/")) dropped.delete(name);
    const target = (await a.post("/api/v1/locations", { name: "Target" })).body.id as string;
    const res = await raw(svc, a, "POST", `/api/v1/locations/${target}/imports`, await zipOf(dropped));
    expect(res.status, res.bytes.toString()).toBe(200);
    const out = res.json();
    tried.foreignHashes += 1;
    expect(out.photos).toBe(0);
    expect(out.skipped).toMatchObject({ files: 1 });
    expect(out.records.files ?? 0).toBe(0);
    const restoredFile = out.ids[mine.file] as string | undefined;
    if (restoredFile) expect((await raw(svc, a, "GET", `/api/v1/files/${restoredFile}`)).status).toBe(404);
    // The thing came back, without the photo it cannot have.
    const thing = (await a.get(`/api/v1/things/${out.ids[mine.thing]}`)).body;
    expect(thing.name).toBe("Camera");
    const [row] = await rows<{ cover: string | null; photos: string[] }>(
      svc.database.db,
      sql`SELECT cover_file_id::text AS cover, photo_file_ids::text[] AS photos FROM things WHERE id = ${out.ids[mine.thing]}`,
    );
    expect(row).toEqual({ cover: null, photos: [] });
    // Nowhere in the attacker's locations does a record name the victim's bytes.
    const leaked = await rows(
      svc.database.db,
      sql`SELECT 1 FROM files f JOIN locations l ON l.id = f.location_id WHERE f.sha256 = ${hash} AND f.location_id <> ${theirs}::uuid`,
    );
    expect(leaked).toEqual([]);
    // The victim's own file is untouched and still theirs alone.
    expect((await raw(svc, a, "GET", `/api/v1/files/${victim.file}`)).status).toBe(404);
    expect((await raw(svc, b, "GET", `/api/v1/files/${victim.file}`)).bytes).toEqual(OTHER_PNG);

    // The attacker's own bytes in the zip under the victim's hash: refused, nothing written.
    const snapshot = await snapshotter(svc.database.db);
    const before = await snapshot();
    const second = (await a.post("/api/v1/locations", { name: "Second target" })).body.id as string;
    const mid = await snapshot();
    const swapped = await raw(svc, a, "POST", `/api/v1/locations/${second}/imports`, await zipOf(withRows(files, "files", forged)));
    expect(swapped.status, swapped.bytes.toString()).toBe(400);
    expect(swapped.json().error.message).toMatch(/not the one its record names/);
    expect(changedMetrics(mid, await snapshot())).toEqual([]);
    expect(changedMetrics(before, mid).length).toBeGreaterThan(0); // the snapshot does see a write
    tried.foreignHashes += 1;
    tried.refused += 1;
  });
});
