/**
 * The end of the trash: a location deleted more than 30 days ago is purged by the hourly job, with
 * every row of every table that holds its rows, its photos no other location uses, its change-log
 * entries and its managed accounts. References from another location into it are cut; nothing of
 * another location goes. A location deleted 29 days ago stays in the trash.
 */
import pino from "pino";
import sharp from "sharp";
import { describe, expect } from "vitest";
import { rows, sql } from "../../../server/db/client.js";
import { blobStoreOf } from "../../../server/modules/files/blob-store.js";
import { purgeDueLocations } from "../../../server/modules/locations/purge.js";
import { apiTest as test } from "../../support/fixtures.js";
import { PNG, raw, richLocation } from "../../support/rich-location.js";

const silent = pino({ level: "silent" });

/** Rows holding `locationId` in each public table with a location_id (only tables that hold some). */
async function rowsOf(db: Parameters<typeof rows>[0], locationId: string): Promise<Record<string, number>> {
  const tables = await rows<{ t: string }>(
    db,
    sql`SELECT table_name AS t FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'location_id' ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { t } of tables) {
    const [n] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(t)} WHERE location_id = ${locationId}::uuid`);
    if (n?.n) out[t] = n.n;
  }
  return out;
}

describe("purging the trash", () => {
  test("a location 30 days in the trash goes for good; others stay whole", async ({ svc }) => {
    const db = svc.database.db;
    const c = await svc.signedIn("Petra Purge");
    const loc = (await c.post("/api/v1/locations", { name: "Basement" })).body.id as string;
    await richLocation(svc, c, loc);
    // A photo only this location has, and one (the same bytes) another location has too.
    const own = await sharp({ create: { width: 3, height: 2, channels: 3, background: "#c03" } })
      .png()
      .toBuffer();
    const ownUp = await raw(svc, c, "POST", `/api/v1/files?locationId=${loc}`, own, { "content-type": "application/octet-stream" });
    expect(ownUp.status).toBe(201);
    const shaOf = async (fileId: string) => (await rows<{ sha: string }>(db, sql`SELECT sha256 AS sha FROM files WHERE id = ${fileId}::uuid`))[0]!.sha;
    const ownSha = await shaOf((ownUp.json() as { id: string }).id);
    const keep = (await c.post("/api/v1/locations", { name: "Keep" })).body.id as string;
    const shared = await raw(svc, c, "POST", `/api/v1/files?locationId=${keep}`, PNG, { "content-type": "application/octet-stream" });
    expect(shared.status).toBe(201);
    const sharedFile = { id: (shared.json() as { id: string }).id, sha256: await shaOf((shared.json() as { id: string }).id) };
    // Another location's move heads for the one that will go.
    const inbound = await c.post(`/api/v1/locations/${keep}/moves`, { name: "To the basement", toLocationId: loc });
    expect(inbound.status, JSON.stringify(inbound.body)).toBe(201);
    const managed = await c.post(`/api/v1/locations/${loc}/managed-accounts`, { username: "purge_kid", displayName: "Kid" });
    expect(managed.status, JSON.stringify(managed.body)).toBe(201);
    const recent = (await c.post("/api/v1/locations", { name: "Recent" })).body.id as string;

    const before = await rowsOf(db, loc);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(["places", "things", "files", "meters", "readings", "loans", "moves", "history_entries"]));
    const keepBefore = await rowsOf(db, keep);
    for (const [id, name] of [
      [loc, "Basement"],
      [recent, "Recent"],
    ] as const)
      expect((await c.delete(`/api/v1/locations/${id}`, { confirm: name })).status).toBe(200);
    await rows(db, sql`UPDATE locations SET deleted_at = now() - interval '31 days' WHERE id = ${loc}::uuid`);
    await rows(db, sql`UPDATE locations SET deleted_at = now() - interval '29 days' WHERE id = ${recent}::uuid`);

    const store = blobStoreOf(svc.config);
    expect(await store.describe(ownSha)).not.toBeNull();
    expect(await purgeDueLocations({ db, store, logger: silent })).toBe(1);

    expect(await rowsOf(db, loc)).toEqual({});
    expect(await rows(db, sql`SELECT id FROM locations WHERE id = ${loc}::uuid`)).toEqual([]);
    expect(await rows(db, sql`SELECT seq FROM sync_log WHERE location_id = ${loc}::uuid`)).toEqual([]);
    expect(await rows(db, sql`SELECT id FROM users WHERE id = ${managed.body.id as string}::uuid`)).toEqual([]);
    // The photo only it had is gone from the store; the shared one stays and still opens.
    expect(await store.describe(ownSha)).toBeNull();
    expect(await store.describe(sharedFile.sha256)).not.toBeNull();
    expect((await raw(svc, c, "GET", `/api/v1/files/${sharedFile.id}`)).bytes).toEqual(PNG);
    // The other location keeps every row; its move just lost its destination.
    const keepAfter = await rowsOf(db, keep);
    expect(keepAfter.moves).toBe(keepBefore.moves);
    expect(keepAfter.things).toBe(keepBefore.things);
    const [move] = await rows<{ to: string | null }>(db, sql`SELECT to_location_id::text AS to FROM moves WHERE id = ${inbound.body.id as string}::uuid`);
    expect(move).toEqual({ to: null });
    // 29 days in: still in the trash, and still restorable.
    expect(((await c.get("/api/v1/trash/locations")).body.items as { id: string }[]).map((l) => l.id)).toEqual([recent]);
    expect((await c.post(`/api/v1/locations/${recent}/restore`)).status).toBe(200);
    // A second run finds nothing to do.
    expect(await purgeDueLocations({ db, store, logger: silent })).toBe(0);
  });
});
