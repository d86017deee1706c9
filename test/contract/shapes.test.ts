/**
 * The real @electric-sql/client (ShapeStream, Shape) against our shape endpoint
 * (sync/SPEC.md SH1-SH7), with changes made through the push endpoint like a device would.
 */
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { sql } from "../../server/db/client.js";
import type { TestService } from "../support/app.js";
import { apiTest as test } from "../support/fixtures.js";
import type { Client } from "../support/members.js";
import { op, push } from "../support/push.js";

/** @electric-sql/client's own types disagree with exactOptionalPropertyTypes (shapeHandle?: string). */
const shapeOf = (s: ShapeStream<Row>) => new Shape(s as unknown as ShapeStreamInterface<Row>);

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

function stream(svc: TestService, c: Client, name: string, opts: { liveSse?: boolean; offset?: string; handle?: string } = {}) {
  return new ShapeStream<Row>({
    url: `${svc.url}/api/v1/sync/shape/${name}`,
    headers: { cookie: cookieOf(c) },
    ...(opts.liveSse ? { liveSse: true } : {}),
    ...(opts.offset ? { offset: opts.offset as `${number}_${number}`, handle: opts.handle } : {}),
  });
}

/** Resolves when `pred` holds for the shape's rows. */
function until(shape: Shape<Row>, pred: (rows: Row[]) => boolean, ms = 15_000): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`shape condition not met in ${ms} ms: ${JSON.stringify(shape.currentRows).slice(0, 500)}`)), ms);
    const check = () => {
      if (pred(shape.currentRows)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(shape.currentRows);
      }
    };
    const unsubscribe = shape.subscribe(check);
    check();
  });
}

describe("shapes through the real Electric client", () => {
  test("SH1 SH5 a snapshot of things, values in Postgres text form parsed by the client", async ({ svc, loc, as }) => {
    const id = uuidv7();
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Lantern", quantity: "2.5" } })]);
    const s = stream(svc, as.viewer, "things");
    const shape = shapeOf(s);
    const rows = await shape.rows;
    const lantern = rows.find((r) => r.id === id);
    expect(lantern).toMatchObject({ id, name: "Lantern", quantity: "2.500", location_id: loc, row_version: 1, is_container: false });
    expect(typeof lantern?.fields).toBe("object");
    s.unsubscribeAll();
  });

  test("SH6 live long-poll: inserts, updates and deletes pushed by another device arrive", async ({ svc, loc, as }) => {
    const s = stream(svc, as.viewer, "things");
    const shape = shapeOf(s);
    await shape.rows;
    const id = uuidv7();
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Kayak" } })]);
    await until(shape, (rows) => rows.some((r) => r.id === id && r.name === "Kayak"));
    await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Sea kayak" } }, baseVersion: 1 })]);
    await until(shape, (rows) => rows.some((r) => r.id === id && r.name === "Sea kayak" && r.row_version === 2));
    await push(as.member, [op({ name: "thing.delete", locationId: loc, args: { id }, baseVersion: 2 })]);
    await until(shape, (rows) => !rows.some((r) => r.id === id));
    s.unsubscribeAll();
  });

  test("SH6 live over SSE", async ({ svc, loc, as }) => {
    const s = stream(svc, as.admin, "things", { liveSse: true });
    const shape = shapeOf(s);
    await shape.rows;
    const id = uuidv7();
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Paddle" } })]);
    await until(shape, (rows) => rows.some((r) => r.id === id));
    s.unsubscribeAll();
  });

  test("SH3 resume from a stored offset and handle gets only what changed since", async ({ svc, loc, as }) => {
    const s1 = stream(svc, as.viewer, "places");
    const shape1 = shapeOf(s1);
    await shape1.rows;
    const offset = s1.lastOffset;
    const handle = s1.shapeHandle;
    s1.unsubscribeAll();
    const id = uuidv7();
    await push(as.member, [op({ name: "place.create", locationId: loc, args: { id, name: "Cellar" } })]);
    const seen: Row[] = [];
    const s2 = stream(svc, as.viewer, "places", { offset, ...(handle ? { handle } : {}) });
    await new Promise<void>((resolve) => {
      s2.subscribe((messages) => {
        for (const m of messages) if ("value" in m) seen.push(m.value as Row);
        if (seen.some((r) => r.id === id)) resolve();
      });
    });
    expect(seen.map((r) => r.name)).toEqual(["Cellar"]);
    s2.unsubscribeAll();
  });

  test("SH7 a membership change makes the client refetch: a removed viewer's shape empties", async ({ svc, loc, as }) => {
    const guest = await svc.signedIn("Gina Guest");
    const invite = await as.owner.post(`/api/v1/locations/${loc}/invites`, { role: "viewer" });
    expect((await guest.post("/api/v1/invites/accept", { token: invite.body.token })).status).toBe(200);
    const s = stream(svc, guest, "things");
    const shape = shapeOf(s);
    expect((await shape.rows).some((r) => r.location_id === loc)).toBe(true);
    const removed = await as.owner.delete(`/api/v1/locations/${loc}/members/${guest.userId}`);
    expect(removed.status).toBe(200);
    // The next live request sees a new handle, answers 409 must-refetch, and the client re-syncs.
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Wake-up" } })]);
    await until(shape, (rows) => !rows.some((r) => r.location_id === loc));
    s.unsubscribeAll();
  });

  test("PU7 the txid a push answers arrives on the shape stream with the change", async ({ svc, loc, as }) => {
    const s = stream(svc, as.viewer, "things");
    const txids = new Set<number>();
    s.subscribe((messages) => {
      for (const m of messages)
        if ("headers" in m && Array.isArray((m.headers as { txids?: number[] }).txids))
          for (const t of (m.headers as { txids: number[] }).txids) txids.add(Number(t));
    });
    await shapeOf(s).rows;
    const res = await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Torch" } })]);
    const txid = Number(res.body.results[0].txid);
    await expect.poll(() => txids.has(txid), { timeout: 15_000 }).toBe(true);
    s.unsubscribeAll();
  });

  test("SH2 SH4 a viewer sees money fields only where the location allows it; the setting changes the handle", async ({ svc, loc, as }) => {
    const { typeFields } = await import("../../server/db/schema/index.js");
    const probe = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Type probe" });
    await svc.database.db.insert(typeFields).values({
      id: uuidv7(),
      accountId: sql`(SELECT account_id FROM locations WHERE id = ${loc})`,
      typeId: probe.body.type.id,
      key: "price",
      kind: "money",
      label: "Price",
    });
    const id = uuidv7();
    await push(as.member, [
      op({ name: "thing.create", locationId: loc, args: { id, name: "Camera", fields: { price: { amount: "450.00", currency: "EUR" } } } }),
    ]);
    const first = stream(svc, as.viewer, "things");
    const hidden = (await shapeOf(first).rows).find((r) => r.id === id)!;
    expect(hidden.fields).toEqual({});
    const memberView = (await shapeOf(stream(svc, as.member, "things")).rows).find((r) => r.id === id)!;
    expect(memberView.fields).toEqual({ price: { amount: "450.00", currency: "EUR" } });
    first.unsubscribeAll();
    const handle = async () => (await as.viewer.get(`/api/v1/sync/shape/things?offset=-1`)).headers.get("electric-handle");
    const before = await handle();
    expect((await as.owner.patch(`/api/v1/locations/${loc}`, { viewersSeeMoney: true })).status).toBe(200);
    const second = stream(svc, as.viewer, "things");
    const shown = (await shapeOf(second).rows).find((r) => r.id === id)!;
    expect(shown.fields).toEqual({ price: { amount: "450.00", currency: "EUR" } });
    second.unsubscribeAll();
    const during = await handle();
    expect(during).not.toBe(before);
    // A request still carrying the old handle is told to refetch.
    const stale = await as.viewer.get(`/api/v1/sync/shape/things?offset=0_0&handle=${before}`);
    expect(stale.status).toBe(409);
    expect(stale.headers.get("electric-handle")).toBe(during);
    await as.owner.patch(`/api/v1/locations/${loc}`, { viewersSeeMoney: false });
    // Back to the same settings, yet never an old handle again.
    expect([before, during]).not.toContain(await handle());
  });

  test("SH2 a viewer gets a place's money values left out where the location hides money, as for things", async ({ svc, loc, as }) => {
    const kind = await as.owner.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Rented room" });
    expect((await as.owner.post(`/api/v1/place-kinds/${kind.body.id}/fields`, { key: "rent", label: "Rent", kind: "money" })).status).toBe(201);
    expect((await as.owner.post(`/api/v1/place-kinds/${kind.body.id}/fields`, { key: "door", label: "Door", kind: "text" })).status).toBe(201);
    const rent = { amount: "800.00", currency: "EUR" };
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Studio", kindId: kind.body.id, fields: { rent, door: "blue" } });
    expect(place.status).toBe(201);
    const viewer = stream(svc, as.viewer, "places");
    expect((await shapeOf(viewer).rows).find((r) => r.id === place.body.id)!.fields).toEqual({ door: "blue" });
    viewer.unsubscribeAll();
    const member = stream(svc, as.member, "places");
    expect((await shapeOf(member).rows).find((r) => r.id === place.body.id)!.fields).toEqual({ rent, door: "blue" });
    member.unsubscribeAll();
  });

  test("SH1 a client-chosen table or where is refused, an unknown shape is 404", async ({ svc, as }) => {
    const bad = await as.viewer.get(`/api/v1/sync/shape/things?offset=-1&table=users`);
    expect(bad.status).toBe(400);
    const where = await as.viewer.get(`/api/v1/sync/shape/things?offset=-1&where=true`);
    expect(where.status).toBe(400);
    expect((await as.viewer.get(`/api/v1/sync/shape/users?offset=-1`)).status).toBe(404);
    expect((await svc.client().get(`/api/v1/sync/shape/things?offset=-1`)).status).toBe(401);
  });

  test("SH2 memberships carries only the actor's own rows; an outsider's things shape is empty", async ({ svc, loc, as }) => {
    const mine = await shapeOf(stream(svc, as.member, "memberships")).rows;
    expect(mine.every((m) => m.user_id === as.member.userId)).toBe(true);
    const outsider = await shapeOf(stream(svc, as.outsider, "things")).rows;
    expect(outsider.some((r) => r.location_id === loc)).toBe(false);
  });

  test("SH2 a thing that changes location leaves the shape of a reader of the old location only, and stays for a reader of both", async ({ svc, loc, as }) => {
    const made = await as.owner.post("/api/v1/locations", { name: "New flat" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const target = made.body.id as string;
    const id = uuidv7();
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Moving box" } })]);
    const viewer = shapeOf(stream(svc, as.viewer, "things"));
    const owner = shapeOf(stream(svc, as.owner, "things"));
    await until(viewer, (rows) => rows.some((r) => r.id === id));
    await until(owner, (rows) => rows.some((r) => r.id === id));
    // As unpacking a box of a move does (server/modules/moves/): the row keeps its id and changes location.
    await svc.database.db.execute(
      sql`UPDATE things SET location_id = ${target}, place_id = (SELECT id FROM places WHERE location_id = ${target} AND is_unplaced), row_version = row_version + 1 WHERE id = ${id}`,
    );
    await until(viewer, (rows) => !rows.some((r) => r.id === id));
    await until(owner, (rows) => rows.some((r) => r.id === id && r.location_id === target && r.row_version === 2));
    // A client that starts now gets the row under its new location only.
    expect((await shapeOf(stream(svc, as.viewer, "things")).rows).some((r) => r.id === id)).toBe(false);
    expect((await shapeOf(stream(svc, as.owner, "things")).rows).find((r) => r.id === id)).toMatchObject({ location_id: target });
  });
});
