/**
 * A location with something in every table an export holds (places, things in a box, a photo,
 * ended and trashed things, meters and readings, a loan, a box check, a move to another location),
 * made through the API as a person would; and `raw`, a request with the client's cookie and any body.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { things as thingsTable } from "../../server/db/schema/index.js";
import type { TestService } from "./app.js";
import type { Client } from "./members.js";
import { typeWithFields } from "./secrets.js";

export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
export const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

export async function raw(svc: TestService, c: Client | null, method: string, p: string, body?: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}${p}`, {
    method,
    headers: { ...(c ? { cookie: cookieOf(c) } : {}), origin: svc.config.publicUrl.origin, ...(body ? { "content-type": "application/zip" } : {}), ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, json: () => JSON.parse(bytes.toString()) };
}

/** A location with something in every table an export holds. */
export async function richLocation(svc: TestService, c: Client, loc: string) {
  const ok = async (res: Promise<{ status: number; body: any }>, status = 201) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };
  const book = await typeWithFields(svc.database.db, loc, "Book", [{ key: "author", kind: "text" }]);
  const safe = await typeWithFields(svc.database.db, loc, "Safe", [{ key: "combination", kind: "text", secret: true }]);
  const house = (await ok(c.post(`/api/v1/locations/${loc}/places`, { name: "House" }))).id;
  const study = (await ok(c.post(`/api/v1/locations/${loc}/places`, { name: "Study", parentId: house }))).id;
  const crate = (await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Crate", isContainer: true, placeId: study }))).id;
  const dune = (
    await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Dune", typeId: book.typeId, fields: { author: "Herbert" }, containerId: crate, quantity: 3 }))
  ).id;
  const loose = (await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Loose thing", serial: "SN-1" }))).id;
  const vault = (await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Vault", typeId: safe.typeId, fields: { combination: "12-34-56" } }))).id;
  const up = await raw(svc, c, "POST", `/api/v1/files?locationId=${loc}`, PNG, { "content-type": "application/octet-stream" });
  expect(up.status).toBe(201);
  await svc.database.db.update(thingsTable).set({ coverFileId: up.json().id }).where(eq(thingsTable.id, dune));
  const ended = (await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Old kettle" }))).id;
  await ok(c.patch(`/api/v1/things/${ended}`, { lifecycle: "ended", rowVersion: 1 }), 200);
  const trashed = (await ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Broken lamp" }))).id;
  // A meter on the thing that ends up trashed: an export without trashed things has nothing to hang it on.
  await ok(c.post(`/api/v1/things/${trashed}/meters`, { kind: "electricity", unit: "kWh" }));
  await ok(c.delete(`/api/v1/things/${trashed}`, { rowVersion: 1 }), 200);
  const meter = (await ok(c.post(`/api/v1/things/${loose}/meters`, { kind: "water", unit: "m3", label: "Cold" }))).id;
  await ok(c.post(`/api/v1/meters/${meter}/readings`, { value: "10.500", takenAt: "2026-01-01T10:00:00Z" }));
  await ok(c.post(`/api/v1/meters/${meter}/readings`, { value: "12.250", takenAt: "2026-02-01T10:00:00Z" }));
  await ok(c.post(`/api/v1/things/${loose}/loans`, { direction: "out", person: { name: "Sam" } }));
  await ok(c.post(`/api/v1/things/${crate}/box-checks`, { at: "2026-03-01T12:00:00Z", seen: [dune] }));
  const flat = (await ok(c.post("/api/v1/locations", { name: "New flat" }))).id;
  const move = (await ok(c.post(`/api/v1/locations/${loc}/moves`, { name: "To the flat", toLocationId: flat }))).id;
  await ok(c.post(`/api/v1/moves/${move}/boxes`, { containerId: crate }));
  return { dune, crate, vault, loose, meter, trashed, ended, photo: up.json().id as string };
}
