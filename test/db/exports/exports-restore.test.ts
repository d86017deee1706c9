/**
 * Restoring an export (POST /api/v1/locations/{id}/imports): export -> restore into an empty
 * location of the same account -> export again; the places and things read back equal once ids
 * are mapped. A location that is not empty, another account's export, roles, tokens, bad zips.
 */
import { describe, expect } from "vitest";
import { rows, sql } from "../../../server/db/client.js";
import { entries, exportedZip, zipOf } from "../../support/export-zip.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { PNG, raw, richLocation } from "../../support/rich-location.js";
import { typeWithFields } from "../../support/secrets.js";
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";

const PASSWORD = "correct horse battery";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** A short code is a label's: the source still holds its codes, so the restored rows were given new ones. */
const noCode = (row: string) => row.replace(/"short_code": "[^"]*"/, '"short_code": "*"');

/** Each records/*.json row's own text (the export writes one row per line), old ids mapped to new, codes blanked, sorted. */
function rowTexts(zip: Map<string, Buffer>, name: string, ids: Record<string, string> = {}): string[] {
  const text = zip.get(`records/${name}.json`)!.toString("utf8");
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => noCode(l.replace(/,$/, "").replace(UUID, (m) => ids[m] ?? m)))
    .sort();
}

async function reauthenticated(c: Client) {
  expect((await c.post("/api/v1/me/reauthenticate", { password: PASSWORD })).status).toBe(200);
}

const ALL = { options: { ended: true, trashed: true, history: true, aiCalls: true, readable: false, pdf: false }, includesSecrets: true };

describe("restoring an export", () => {
  test("every record comes back: export -> restore -> export reads the same, row for row, once ids are mapped", async ({ svc }) => {
    const c = await svc.signedIn("Rosa Restore");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const made = await richLocation(svc, c, from);
    await reauthenticated(c);
    const first = await exportedZip(svc, c, from, ALL);

    const to = (await c.post("/api/v1/locations", { name: "Restored" })).body.id as string;
    const res = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, first);
    expect(res.status, res.bytes.toString()).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ places: 2, photos: 1, skipped: {}, records: { secret_values: 1 } });
    expect(out.things).toBe(6);
    const ids = out.ids as Record<string, string>;
    expect(ids[made.dune]).toBeDefined();
    expect(ids[made.dune]).not.toBe(made.dune);
    expect(ids[from]).toBe(to);

    const second = await exportedZip(svc, c, to, ALL);
    const [a, b] = [await entries(first), await entries(second)];
    const tables = [...a.keys()].filter((n) => n.startsWith("records/") && n !== "records/locations.json" && n !== "records/secret_values.json");
    expect(tables.length).toBeGreaterThanOrEqual(18);
    for (const name of tables.map((n) => n.slice("records/".length, -".json".length))) {
      const before = rowTexts(a, name, ids);
      if (["places", "things", "files", "meters", "readings", "loans", "moves", "move_boxes", "box_checks", "history_entries"].includes(name))
        expect(before.length, name).toBeGreaterThan(0);
      // The target's own "location.created" entry is its own history, not the export's.
      const after = rowTexts(b, name).filter(
        (r) => !(name === "history_entries" && r.includes('"action": "location.created"') && r.includes(`"entity_id": "${to}"`)),
      );
      expect(after, name).toEqual(before);
    }
    // The same photo bytes, the secret sealed again for the new thing, things readable as any other.
    expect(b.get(`files/${ids[made.photo]}.png`)).toEqual(a.get(`files/${made.photo}.png`));
    expect((await raw(svc, c, "GET", `/api/v1/files/${ids[made.photo]}`)).bytes).toEqual(PNG);
    const reveal = await c.post(`/api/v1/things/${ids[made.vault]}/secrets/combination/reveal`);
    expect(reveal.status, JSON.stringify(reveal.body)).toBe(200);
    expect(JSON.stringify(reveal.body)).toContain("12-34-56");
    expect((await c.get(`/api/v1/things/${ids[made.dune]}`)).body).toMatchObject({ name: "Dune", fields: { author: "Herbert" } });
    expect((await c.get(`/api/v1/locations/${to}/things`)).body.items.map((t: { name: string }) => t.name)).toContain("Dune");

    // Not empty any more: refused, nothing written.
    const again = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, first);
    expect(again.status).toBe(409);
    expect(again.json().error.message).toMatch(/empty location/);
  });

  test("an export without trashed things: what hangs on a left-out thing is left out too, and said so", async ({ svc }) => {
    const c = await svc.signedIn("Tilda Trash");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const made = await richLocation(svc, c, from);
    const zip = await exportedZip(svc, c, from, { options: { ended: false, trashed: false, history: true } });
    const to = (await c.post("/api/v1/locations", { name: "Restored" })).body.id as string;
    const res = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, zip);
    expect(res.status, res.bytes.toString()).toBe(200);
    const out = res.json();
    expect(out.ids[made.trashed]).toBeUndefined();
    expect(out.ids[made.ended]).toBeUndefined();
    // The lamp's meter was exported (it is not trashed itself) but has no thing to hang on.
    const meters = (await entries(zip)).get("records/meters.json")!.toString();
    expect(meters).toContain(made.trashed);
    expect(out.skipped).toEqual({ meters: 1 });
    expect(out.records).toMatchObject({ places: 2, things: 4, files: 1, readings: 2, loans: 1, moves: 1, move_boxes: 1, box_checks: 1 });
    expect(out.records.meters).toBe(1);
    expect(out.ids[made.meter]).toBeDefined();
  });

  test("into another account (a backup on a new server): registries come along, built-in types matched, strangers dropped", async ({ svc }) => {
    const c = await svc.signedIn("Rosa Restore");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const made = await richLocation(svc, c, from);
    const zip = await exportedZip(svc, c, from, { options: { history: true } });
    const other = await svc.signedIn("New Server Person");
    const to = (await other.get("/api/v1/me")).body.locations[0].id as string;
    const res = await raw(svc, other, "POST", `/api/v1/locations/${to}/imports`, zip);
    expect(res.status, res.bytes.toString()).toBe(200);
    const ids = res.json().ids as Record<string, string>;
    const dune = (await other.get(`/api/v1/things/${ids[made.dune]}`)).body;
    expect(dune).toMatchObject({ name: "Dune", fields: { author: "Herbert" } });
    const [row] = await rows<{ account: string; builtin: string | null }>(
      svc.database.db,
      sql`SELECT ty.account_id::text AS account, ty.builtin_key AS builtin FROM things t JOIN types ty ON ty.id = t.type_id WHERE t.id = ${ids[made.loose]}`,
    );
    const [acc] = await rows<{ id: string }>(svc.database.db, sql`SELECT account_id::text AS id FROM locations WHERE id = ${to}`);
    expect(row!.account).toBe(acc!.id);
    expect(row!.builtin).not.toBeNull();
    // Rosa is nobody in this account: not named as the creator of anything restored.
    const named = await rows(svc.database.db, sql`SELECT 1 FROM things WHERE location_id = ${to} AND created_by = ${c.userId}`);
    expect(named).toEqual([]);
    // The loan's contact came along into the new account.
    const [loan] = await rows<{ account: string; name: string }>(
      svc.database.db,
      sql`SELECT c.account_id::text AS account, c.name FROM loans l JOIN contacts c ON c.id = l.contact_id WHERE l.location_id = ${to}`,
    );
    expect(loan).toEqual({ account: acc!.id, name: "Sam" });
  });

  test("a crafted zip pointing at another account's rows is refused and changes nothing", async ({ svc, loc, as }) => {
    const c = await svc.signedIn("Mallory Zip");
    const own = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const thing = (await c.post(`/api/v1/locations/${own}/things`, { name: "Bait" })).body.id as string;
    const zip = await entries(await exportedZip(svc, c, own, {}));
    const victimType = await typeWithFields(svc.database.db, loc, "Victim type", []);
    const victimPlace = (await as.owner.post(`/api/v1/locations/${loc}/places`, { name: "Victim's attic" })).body.id as string;
    const to = (await c.post("/api/v1/locations", { name: "Target" })).body.id as string;
    const crafted = (edit: (row: Record<string, unknown>) => void) => {
      const files = new Map(zip);
      const list = JSON.parse(zip.get("records/things.json")!.toString()) as Record<string, unknown>[];
      for (const r of list) if (r.id === thing) edit(r);
      files.set("records/things.json", Buffer.from(JSON.stringify(list)));
      return zipOf(files);
    };
    const typeRes = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, await crafted((r) => (r.type_id = victimType.typeId)));
    expect(typeRes.status, typeRes.bytes.toString()).toBe(400);
    expect((await c.get(`/api/v1/locations/${to}/things`)).body.items).toEqual([]);
    // A place of another tenant is not the thing's place after a restore (it is not in the export).
    const placeRes = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, await crafted((r) => (r.place_id = victimPlace)));
    expect(placeRes.status, placeRes.bytes.toString()).toBe(200);
    const [row] = await rows<{ place_id: string | null }>(
      svc.database.db,
      sql`SELECT place_id::text AS place_id FROM things WHERE id = ${placeRes.json().ids[thing]}`,
    );
    expect(row!.place_id).not.toBe(victimPlace);
    const leaked = await rows(svc.database.db, sql`SELECT 1 FROM things WHERE location_id = ${to} AND place_id = ${victimPlace}`);
    expect(leaked).toEqual([]);
  });

  test("a photo that is not the one its record names, a non-empty location, a member, a token, a body that is not a zip: refused", async ({ svc, loc, as }) => {
    const c = await svc.signedIn("Other Account");
    const own = (await c.get("/api/v1/me")).body.locations[0].id as string;
    await richLocation(svc, c, own);
    const zip = await exportedZip(svc, c, own, {});
    const busy = (await as.owner.post("/api/v1/locations", { name: "Busy" })).body.id as string;
    await as.owner.post(`/api/v1/locations/${busy}/things`, { name: "Already here" });
    expect((await raw(svc, as.owner, "POST", `/api/v1/locations/${busy}/imports`, zip)).status).toBe(409);
    const empty = (await as.owner.post("/api/v1/locations", { name: "Empty" })).body.id as string;
    const files = await entries(zip);
    const photo = [...files.keys()].find((n) => n.startsWith("files/"))!;
    const swapped = new Map(files).set(photo, Buffer.concat([PNG, Buffer.from("tampered")]));
    const bad = await raw(svc, as.owner, "POST", `/api/v1/locations/${empty}/imports`, await zipOf(swapped));
    expect(bad.status, bad.bytes.toString()).toBe(400);
    expect((await raw(svc, as.member, "POST", `/api/v1/locations/${loc}/imports`, zip)).status).toBe(403);
    expect((await raw(svc, as.outsider, "POST", `/api/v1/locations/${empty}/imports`, zip)).status).toBe(404);
    expect((await raw(svc, as.owner, "POST", `/api/v1/locations/${empty}/imports`, Buffer.from("not a zip at all"))).status).toBe(400);
    const tok = await as.owner.post("/api/v1/tokens", { name: "restore script", scope: "write", locationIds: [loc] });
    expect((await raw(svc, null, "POST", `/api/v1/locations/${empty}/imports`, zip, { authorization: `Bearer ${tok.body.secret}` })).status).toBe(403);
    expect((await as.owner.get(`/api/v1/locations/${empty}/things`)).body.items).toEqual([]);
  });

  test("devices subscribed before a restore see the restored places and things arrive live, without fetching again", async ({ svc }) => {
    const c = await svc.signedIn("Devi Device");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const made = await richLocation(svc, c, from);
    const zip = await exportedZip(svc, c, from, {});
    const to = (await c.post("/api/v1/locations", { name: "Restored live" })).body.id as string;
    const open = (name: string) =>
      new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/${name}`, headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
    const streams = [open("things"), open("places")];
    // @electric-sql/client's own types disagree with exactOptionalPropertyTypes (shapeHandle?: string).
    const [things, places] = streams.map((s) => new Shape(s as unknown as ShapeStreamInterface<Row>));
    await Promise.all([things!.rows, places!.rows]);
    const handles = streams.map((s) => s.shapeHandle);
    let refetched = 0;
    for (const s of streams)
      s.subscribe((messages) => {
        refetched += messages.filter((m) => "headers" in m && m.headers.control === "must-refetch").length;
      });

    const res = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, zip);
    expect(res.status, res.bytes.toString()).toBe(200);
    const ids = res.json().ids as Record<string, string>;
    const until = (shape: Shape<Row>, pred: (rows: Row[]) => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the restored rows did not arrive within 10 s")), 10_000);
        const check = () => {
          if (!pred(shape.currentRows)) return;
          clearTimeout(timer);
          stop();
          resolve();
        };
        const stop = shape.subscribe(check);
        check();
      });
    await until(things!, (r) => r.some((t) => t.id === ids[made.dune] && t.location_id === to));
    await until(places!, (r) => r.filter((p) => p.location_id === to && !p.is_unplaced).length === 2);
    expect(refetched).toBe(0);
    expect(streams.map((s) => s.shapeHandle)).toEqual(handles);
    for (const s of streams) s.unsubscribeAll();
  });

  test("an export that lacks a photo's bytes (a blob gone from the store) restores without that file record, counted in skipped", async ({ svc }) => {
    const c = await svc.signedIn("Mona Missing");
    const from = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const made = await richLocation(svc, c, from);
    const files = await entries(await exportedZip(svc, c, from, {}));
    // What the export writes when a photo's blob is gone: the record, no files/ entry, counted in the manifest.
    const photo = [...files.keys()].find((n) => n.startsWith("files/"))!;
    files.delete(photo);
    const manifest = JSON.parse(files.get("manifest.json")!.toString()) as Record<string, unknown>;
    files.set("manifest.json", Buffer.from(JSON.stringify({ ...manifest, missingFiles: 1 })));
    expect(files.get("records/files.json")!.toString()).toContain(made.photo);

    const to = (await c.post("/api/v1/locations", { name: "Restored" })).body.id as string;
    const res = await raw(svc, c, "POST", `/api/v1/locations/${to}/imports`, await zipOf(files));
    expect(res.status, res.bytes.toString()).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ photos: 0, skipped: { files: 1 }, records: { files: 0 } });
    expect(out.things).toBeGreaterThan(0);
    const [dune] = await rows<{ cover: string | null }>(svc.database.db, sql`SELECT cover_file_id::text AS cover FROM things WHERE id = ${out.ids[made.dune]}`);
    expect(dune).toEqual({ cover: null });
    expect(await rows(svc.database.db, sql`SELECT 1 FROM files WHERE location_id = ${to}`)).toEqual([]);
  });
});
