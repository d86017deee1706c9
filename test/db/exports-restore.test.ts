/**
 * Restoring an export (POST /api/v1/locations/{id}/imports): export -> restore into an empty
 * location of the same account -> export again; the places and things read back equal once ids
 * are mapped. A location that is not empty, another account's export, roles, tokens, bad zips.
 */
import { eq } from "drizzle-orm";
import pino from "pino";
import yauzl from "yauzl";
import { describe, expect } from "vitest";
import { things as thingsTable } from "../../server/db/schema/index.js";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { exportDirOf, startExportWorker } from "../../server/modules/exports/worker.js";
import { apiTest as test } from "../support/fixtures.js";
import type { TestService } from "../support/app.js";
import type { Client } from "../support/members.js";
import { typeWithFields } from "../support/secrets.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function raw(svc: TestService, c: Client | null, method: string, p: string, body?: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}${p}`, {
    method,
    headers: { ...(c ? { cookie: cookieOf(c) } : {}), origin: svc.config.publicUrl.origin, ...(body ? { "content-type": "application/zip" } : {}), ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, json: () => JSON.parse(bytes.toString()) };
}

async function exported(svc: TestService, c: Client, loc: string): Promise<Buffer> {
  const made = await c.post("/api/v1/exports", { scope: "location", locationId: loc });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await startExportWorker(
    { db: svc.database.db, store: blobStoreOf(svc.config), dir: exportDirOf(svc.config.dataDir), logger: pino({ level: "silent" }) },
    { timer: false },
  ).drain();
  return (await raw(svc, c, "GET", `/api/v1/exports/${made.body.id}/file`)).bytes;
}

function entries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err ?? new Error("not a zip"));
      const out = new Map<string, Buffer>();
      z.on("entry", (e: yauzl.Entry) =>
        z.openReadStream(e, (_e, s) => {
          const chunks: Buffer[] = [];
          s.on("data", (c: Buffer) => chunks.push(c));
          s.on("end", () => {
            out.set(e.fileName, Buffer.concat(chunks));
            z.readEntry();
          });
        }),
      );
      z.on("end", () => resolve(out));
      z.readEntry();
    }),
  );
}

/** Places and things as the zip holds them, with ids replaced by names of what they point to (ids differ after a restore). */
async function comparable(zip: Buffer) {
  const files = await entries(zip);
  const rows = (n: string) => JSON.parse(files.get(`records/${n}.json`)!.toString()) as Record<string, any>[];
  const places = rows("places");
  const things = rows("things");
  const sha = new Map(rows("files").map((f) => [f.id, f.sha256]));
  const placeName = new Map(places.map((p) => [p.id, p.is_unplaced ? "(unplaced)" : p.name]));
  const thingName = new Map(things.map((t) => [t.id, t.name]));
  return {
    places: places
      .filter((p) => !p.is_unplaced)
      .map((p) => ({ name: p.name, parent: p.parent_id ? placeName.get(p.parent_id) : null, kind_id: p.kind_id, fields: p.fields }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    things: things
      .map((t) => ({
        name: t.name,
        quantity: t.quantity,
        fields: t.fields,
        type_id: t.type_id,
        lifecycle: t.lifecycle,
        is_container: t.is_container,
        tag_ids: t.tag_ids,
        serial: t.serial,
        place: t.place_id ? placeName.get(t.place_id) : null,
        container: t.container_id ? thingName.get(t.container_id) : null,
        cover: t.cover_file_id ? sha.get(t.cover_file_id) : null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

describe("restoring an export", () => {
  test("export -> restore into an empty location -> export again: places and things equal after mapping ids", async ({ svc }) => {
    const c = await svc.signedIn("Rosa Restore");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const book = await typeWithFields(svc.database.db, from, "Book", [{ key: "author", kind: "text" }]);
    const house = (await c.post(`/api/v1/locations/${from}/places`, { name: "House" })).body.id;
    const study = (await c.post(`/api/v1/locations/${from}/places`, { name: "Study", parentId: house })).body.id;
    const crate = (await c.post(`/api/v1/locations/${from}/things`, { name: "Crate", isContainer: true, placeId: study })).body.id;
    const dune = await c.post(`/api/v1/locations/${from}/things`, {
      name: "Dune",
      typeId: book.typeId,
      fields: { author: "Herbert" },
      containerId: crate,
      quantity: 3,
    });
    expect(dune.status).toBe(201);
    await c.post(`/api/v1/locations/${from}/things`, { name: "Loose thing", serial: "SN-1" });
    const up = await raw(svc, c, "POST", `/api/v1/files?locationId=${from}`, PNG, { "content-type": "application/octet-stream" });
    expect(up.status).toBe(201);
    await svc.database.db.update(thingsTable).set({ coverFileId: up.json().id }).where(eq(thingsTable.id, dune.body.id));

    const first = await exported(svc, c, from);
    const to = (await c.post("/api/v1/locations", { name: "Restored" })).body.id as string;
    const res = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, first);
    expect(res.status, res.bytes.toString()).toBe(200);
    expect(res.json()).toMatchObject({ places: 2, things: 3, photos: 1 });
    expect(res.json().ids[dune.body.id]).toBeDefined();
    expect(res.json().ids[dune.body.id]).not.toBe(dune.body.id);
    const second = await exported(svc, c, to);
    const [a, b] = [await comparable(first), await comparable(second)];
    expect(a.things).toHaveLength(3);
    expect(b).toEqual(a);
    // The restored things are the location's, readable through the API like any other.
    expect((await c.get(`/api/v1/things/${res.json().ids[dune.body.id]}`)).body).toMatchObject({ name: "Dune", fields: { author: "Herbert" } });

    // Not empty any more: refused, nothing written.
    const again = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, first);
    expect(again.status).toBe(409);
    expect(again.json().error.message).toMatch(/empty location/);
  });

  test("another account's export, a member, a token, a body that is not a zip: refused", async ({ svc, loc, as }) => {
    const c = await svc.signedIn("Other Account");
    const own = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const zip = await exported(svc, c, own);
    const empty = (await as.owner.post("/api/v1/locations", { name: "Empty" })).body.id as string;
    expect((await raw(svc, as.owner, "POST", `/api/v1/locations/${empty}/imports`, zip)).status).toBe(409);
    expect((await raw(svc, as.member, "POST", `/api/v1/locations/${loc}/imports`, zip)).status).toBe(403);
    expect((await raw(svc, as.outsider, "POST", `/api/v1/locations/${empty}/imports`, zip)).status).toBe(404);
    expect((await raw(svc, as.owner, "POST", `/api/v1/locations/${empty}/imports`, Buffer.from("not a zip at all"))).status).toBe(400);
    const tok = await as.owner.post("/api/v1/tokens", { name: "restore script", scope: "write", locationIds: [loc] });
    expect((await raw(svc, null, "POST", `/api/v1/locations/${empty}/imports`, zip, { authorization: `Bearer ${tok.body.secret}` })).status).toBe(403);
    const list = (await as.owner.get(`/api/v1/locations/${empty}/things`)).body.items;
    expect(list).toEqual([]);
  });
});
