/**
 * Live shapes over SSE (sync/SPEC.md SH6) with many subscribers: streams of the same content share
 * one read per change (server/sync/shapes/live-streams.ts), so these check that each subscriber
 * still gets exactly its own content, and that a scope change ends a stream at once.
 */
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { sql } from "../../server/db/client.js";
import type { TestService } from "../support/app.js";
import { apiTest as test } from "../support/fixtures.js";
import type { Client } from "../support/members.js";
import { op, push } from "../support/push.js";

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

function sseShape(svc: TestService, c: Client, name: string): { stream: ShapeStream<Row>; shape: Shape<Row> } {
  const stream = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/${name}`, headers: { cookie: cookieOf(c) }, liveSse: true });
  return { stream, shape: new Shape(stream as unknown as ShapeStreamInterface<Row>) };
}

/** Resolves with the rows once `pred` holds for them. */
function until(shape: Shape<Row>, pred: (rows: Row[]) => boolean, ms = 15_000): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`shape condition not met in ${ms} ms: ${JSON.stringify(shape.currentRows).slice(0, 500)}`)), ms);
    const check = () => {
      if (!pred(shape.currentRows)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(shape.currentRows);
    };
    const unsubscribe = shape.subscribe(check);
    check();
  });
}

/** A plain SSE reader: the handle and offset of a caught-up shape, then every event of its live stream until it ends. */
async function rawStream(svc: TestService, c: Client, name: string) {
  const first = await c.get(`/api/v1/sync/shape/${name}?offset=-1`);
  let offset = first.headers.get("electric-offset")!;
  const handle = first.headers.get("electric-handle")!;
  // Read the snapshot's pages and the log until up to date.
  for (;;) {
    const r = await c.get(`/api/v1/sync/shape/${name}?offset=${offset}&handle=${handle}`);
    offset = r.headers.get("electric-offset")!;
    if (r.headers.has("electric-up-to-date")) break;
  }
  const res = await fetch(`${svc.url}/api/v1/sync/shape/${name}?offset=${offset}&handle=${handle}&live=true&live_sse=true`, {
    headers: { cookie: cookieOf(c), accept: "text/event-stream" },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  /** Every event's data until the server ends the stream. */
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    return text
      .split("\n\n")
      .filter((e) => e.startsWith("data: "))
      .map((e) => JSON.parse(e.slice(6)) as { value?: Row; headers: Record<string, unknown> });
  })();
  return { handle, offset, ended, cancel: () => reader.cancel() };
}

async function addMoneyField(svc: TestService, as: Record<string, Client>, loc: string) {
  const { typeFields } = await import("../../server/db/schema/index.js");
  const probe = await as.member!.post(`/api/v1/locations/${loc}/things`, { name: "Type probe" });
  await svc.database.db.insert(typeFields).values({
    id: uuidv7(),
    accountId: sql`(SELECT account_id FROM locations WHERE id = ${loc})`,
    typeId: probe.body.type.id,
    key: "price",
    kind: "money",
    label: "Price",
  });
}

describe("live shapes over SSE, many subscribers", () => {
  test("SH6 SH2 streams of several users and roles each get exactly their content: money hidden for the viewer only, nothing for an outsider", async ({
    svc,
    loc,
    as,
  }) => {
    await addMoneyField(svc, as, loc);
    const users = [as.owner, as.admin, as.member, as.viewer];
    // Three devices per person in the location, and an outsider with two.
    const subscribers = users.flatMap((c) => [0, 1, 2].map(() => ({ c, ...sseShape(svc, c, "things") })));
    const outsiders = [0, 1].map(() => ({ c: as.outsider, ...sseShape(svc, as.outsider, "things") }));
    await Promise.all([...subscribers, ...outsiders].map((s) => s.shape.rows));
    const id = uuidv7();
    const price = { amount: "450.00", currency: "EUR" };
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Camera", fields: { price } } })]);
    for (const s of subscribers) {
      const rows = await until(s.shape, (r) => r.some((x) => x.id === id));
      expect(rows.find((x) => x.id === id)!.fields, `${s.c.email}`).toEqual(s.c === as.viewer ? {} : { price });
    }
    // The outsider's own location: once its change arrives, the camera (logged before it) would have too.
    const mine = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    const fence = uuidv7();
    await push(as.outsider, [op({ name: "thing.create", locationId: mine, args: { id: fence, name: "Own lamp" } })]);
    for (const s of outsiders) {
      const rows = await until(s.shape, (r) => r.some((x) => x.id === fence));
      expect(rows.some((x) => x.id === id)).toBe(false);
    }
    // And every subscriber of the location gets an update, in its own form.
    await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Old camera" } }, baseVersion: 1 })]);
    for (const s of subscribers) {
      const rows = await until(s.shape, (r) => r.some((x) => x.id === id && x.name === "Old camera"));
      expect(rows.find((x) => x.id === id)!.fields).toEqual(s.c === as.viewer ? {} : { price });
    }
    for (const s of [...subscribers, ...outsiders]) s.stream.unsubscribeAll();
  });

  test("SH2 SH6 a memberships stream carries only the actor's own rows, whoever else's membership changes", async ({ svc, loc, as }) => {
    const member = await rawStream(svc, as.member, "memberships");
    // Another person's membership changes (logged under the same location), then the member's own.
    expect((await as.owner.patch(`/api/v1/locations/${loc}/members/${as.viewer.userId}`, { role: "member" })).status).toBe(200);
    expect((await as.owner.patch(`/api/v1/locations/${loc}/members/${as.member.userId}`, { role: "admin" })).status).toBe(200);
    // The member's own change is a scope change: its stream ends, having carried no one else's row.
    const events = await member.ended;
    expect(events.filter((e) => e.value && e.value.user_id !== as.member.userId)).toEqual([]);
    const next = await as.member.get(`/api/v1/sync/shape/memberships?offset=${member.offset}&handle=${member.handle}`);
    expect(next.status).toBe(409);
  });

  test("SH4 SH7 a removed member's SSE stream ends at once and its next request is 409; the real client then empties the shape", async ({ svc, loc, as }) => {
    const raw = await rawStream(svc, as.viewer, "things");
    const client = sseShape(svc, as.viewer, "things");
    const staying = sseShape(svc, as.member, "things");
    expect((await client.shape.rows).some((r) => r.location_id === loc)).toBe(true);
    await staying.shape.rows;
    expect((await as.owner.delete(`/api/v1/locations/${loc}/members/${as.viewer.userId}`)).status).toBe(200);
    // No further change is needed: the membership's own log entry ends the stream.
    const events = await raw.ended;
    expect(events.filter((e) => e.value)).toEqual([]);
    const next = await as.viewer.get(`/api/v1/sync/shape/things?offset=${raw.offset}&handle=${raw.handle}`);
    expect(next.status).toBe(409);
    expect(next.body).toEqual([{ headers: { control: "must-refetch" } }]);
    await until(client.shape, (rows) => !rows.some((r) => r.location_id === loc));
    // The others of the location go on receiving.
    const id = uuidv7();
    await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "After" } })]);
    await until(staying.shape, (rows) => rows.some((r) => r.id === id));
    expect(client.shape.currentRows.some((r) => r.id === id)).toBe(false);
    client.stream.unsubscribeAll();
    staying.stream.unsubscribeAll();
  });
});
