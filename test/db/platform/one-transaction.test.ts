/**
 * A REST write is one transaction: the service finds the row's location, runs the command and
 * reads the answer back inside the actor transaction it opened (server/modules/<domain>/service.ts).
 * Counted two ways: the transactions the database handle opened while the request ran, and the
 * x-txid header against the transaction sync_log recorded the change in.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { rows, sql, type Database } from "../../../server/db/client.js";
import { startService, type HttpResponse, type TestService } from "../../support/app.js";
import { freshDatabase } from "../../support/db.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

let svc: TestService;
let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let opened = 0;

/** The same database, with every transaction it opens counted. */
function counting(database: Database): Database {
  const db = new Proxy(database.db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== "transaction" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        opened++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...database, db, close: () => database.close() };
}

beforeAll(async () => {
  svc = await startService({}, counting(await freshDatabase()));
  ({ locationId: loc, as } = await locationWithRoles(svc));
});
afterAll(async () => svc?.close());

/** Runs the request and answers it with the number of transactions opened meanwhile. */
async function counted(send: () => Promise<HttpResponse>): Promise<{ res: HttpResponse; transactions: number }> {
  const before = opened;
  const res = await send();
  return { res, transactions: opened - before };
}

/** The transaction sync_log recorded the latest change of a row in (the xid the x-txid header names). */
async function loggedTxid(rowId: string): Promise<string> {
  const [row] = await rows<{ txid: string }>(
    svc.database.db,
    sql`SELECT txid::xid::text AS txid FROM sync_log WHERE row_id = ${rowId} ORDER BY seq DESC LIMIT 1`,
  );
  return row!.txid;
}

async function expectOneTransaction(c: Client, send: (c: Client) => Promise<HttpResponse>, rowId: (res: HttpResponse) => string, status = 200) {
  // A session is looked up once and then cached: a request first, so the lookup is not counted.
  await c.get("/api/v1/me");
  const { res, transactions } = await counted(() => send(c));
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(transactions).toBe(1);
  const txid = res.headers.get("x-txid");
  expect(txid).toMatch(/^\d+$/);
  expect(await loggedTxid(rowId(res))).toBe(txid);
  return res;
}

describe("one transaction per REST write, its txid in x-txid", () => {
  test("PATCH /places/:id finds the place, updates it and reads it back in one transaction", async () => {
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Shed" });
    const res = await expectOneTransaction(
      as.member,
      (c) => c.patch(`/api/v1/places/${place.body.id}`, { rowVersion: place.body.rowVersion, name: "Garden shed" }),
      (r) => r.body.id,
    );
    expect(res.body).toMatchObject({ name: "Garden shed", rowVersion: 2 });
  });

  test("POST /locations/:id/places", async () => {
    await expectOneTransaction(
      as.member,
      (c) => c.post(`/api/v1/locations/${loc}/places`, { name: "Attic" }),
      (r) => r.body.id,
      201,
    );
  });

  test("POST /locations/:id/things", async () => {
    await expectOneTransaction(
      as.member,
      (c) => c.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" }),
      (r) => r.body.id,
      201,
    );
  });

  test("PATCH /things/:id, POST /things/:id/move and DELETE /things/:id", async () => {
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle" });
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Kitchen" });
    const id = thing.body.id as string;
    const patched = await expectOneTransaction(
      as.member,
      (c) => c.patch(`/api/v1/things/${id}`, { rowVersion: 1, colour: "red" }),
      () => id,
    );
    expect(patched.body).toMatchObject({ colour: "red", rowVersion: 2 });
    await expectOneTransaction(
      as.member,
      (c) => c.post(`/api/v1/things/${id}/move`, { placeId: place.body.id }),
      () => id,
    );
    const deleted = await expectOneTransaction(
      as.member,
      (c) => c.delete(`/api/v1/things/${id}`, { rowVersion: 3 }),
      () => id,
    );
    // WriteResult (shared/writes.ts) names txid, so the body keeps it beside the header.
    expect(deleted.body.txid).toBe(deleted.headers.get("x-txid"));
  });

  test("POST /inbox/:id/accept", async () => {
    const thingId = uuidv7();
    const pushed = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: thingId, name: "Captured lamp" } })]);
    expect(pushed.body.results[0].status).toBe("applied");
    const item = ((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body.items as { id: string; thing?: { id: string } }[]).find(
      (i) => i.thing?.id === thingId,
    )!;
    const res = await expectOneTransaction(
      as.admin,
      (c) => c.post(`/api/v1/inbox/${item.id}/accept`),
      () => item.id,
    );
    expect(res.body.item.status).toBe("accepted");
  });

  test("POST /history/:eventId/undo answers its txid in the header only", async () => {
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Vase" });
    const [created] = (await as.member.get(`/api/v1/things/${thing.body.id}/history`)).body.items;
    const patched = await as.member.patch(`/api/v1/things/${thing.body.id}`, { rowVersion: 1, name: "Blue vase" });
    expect(patched.status).toBe(200);
    const [changed] = (await as.member.get(`/api/v1/things/${thing.body.id}/history`)).body.items;
    expect(changed.id).not.toBe(created.id);
    const res = await expectOneTransaction(
      as.member,
      (c) => c.post(`/api/v1/history/${changed.id}/undo`),
      () => thing.body.id,
    );
    expect(res.body).not.toHaveProperty("txid");
  });

  test("PATCH /locations/:id and PATCH, DELETE /locations/:id/members/:userId", async () => {
    await expectOneTransaction(
      as.owner,
      (c) => c.patch(`/api/v1/locations/${loc}`, { name: "Home, renamed" }),
      () => loc,
    );
    const [membership] = await rows<{ id: string }>(
      svc.database.db,
      sql`SELECT id FROM memberships WHERE location_id = ${loc} AND user_id = ${as.viewer.userId}`,
    );
    await expectOneTransaction(
      as.owner,
      (c) => c.patch(`/api/v1/locations/${loc}/members/${as.viewer.userId}`, { role: "member" }),
      () => membership!.id,
    );
    const removed = await expectOneTransaction(
      as.owner,
      (c) => c.delete(`/api/v1/locations/${loc}/members/${as.viewer.userId}`),
      () => membership!.id,
    );
    // MemberRemoved (shared/members.ts) names txid, so the body keeps it beside the header.
    expect(removed.body).toEqual({ ok: true, txid: removed.headers.get("x-txid") });
  });

  test("a refused write opens one transaction too, and commits nothing", async () => {
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Cellar" });
    await as.outsider.get("/api/v1/me");
    const { res, transactions } = await counted(() => as.outsider.patch(`/api/v1/places/${place.body.id}`, { rowVersion: 1, name: "Not yours" }));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-txid")).toBeNull();
    expect(transactions).toBe(1);
    expect((await as.member.get(`/api/v1/locations/${loc}/places`)).body.items).toContainEqual(expect.objectContaining({ id: place.body.id, name: "Cellar" }));
  });
});
