/**
 * Webhooks (issue "data-out"): the admin routes (roles, tokens, limits at the bound and one past),
 * and deliveries to a real receiver on loopback (the test switch on) that verifies each signature
 * with the standardwebhooks package; events from a REST write and a pushed op arrive once; a failing
 * receiver is retried with backoff until the webhook is switched off; loopback is refused without
 * the switch, at create and at delivery.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Webhook } from "standardwebhooks";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, test as base } from "vitest";
import { MAX_WEBHOOK_URL, MAX_WEBHOOKS_PER_LOCATION, WEBHOOK_BACKOFF_MS, webhookCreatedSchema, webhookSchema } from "../../../shared/webhooks.js";
import { rows, sql } from "../../../server/db/client.js";
import { pruneDeliveries } from "../../../server/modules/webhooks/queue.js";
import { deliverDue } from "../../../server/modules/webhooks/worker.js";
import { startService, type TestService } from "../../support/app.js";
import { locationWithRoles } from "../../support/members.js";
import { addBox, newMove, packedBox } from "../../support/moves.js";
import { expectMalformedCursorsRefused, walkPages } from "../../support/paging.js";
import { op, push } from "../../support/push.js";

const test = base
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("svc", { scope: "file" }, async ({}, { onCleanup }) => {
    const svc = await startService({ SVC_WEBHOOKS_ALLOW_LOOPBACK: "1" });
    onCleanup(() => svc.close());
    return svc;
  })
  .extend("team", { scope: "file" }, async ({ svc }) => locationWithRoles(svc))
  .extend("loc", { scope: "file" }, async ({ team }) => team.locationId)
  .extend("as", { scope: "file" }, async ({ team }) => team.as);

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on 127.0.0.1 that answers `status()` and keeps what it got. */
async function receiver(status: () => number = () => 204): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const deliver = (svc: TestService, at?: Date, allowLoopback = true) =>
  deliverDue({ db: svc.database.db, config: { webhooksAllowLoopback: allowLoopback }, logger: pino({ level: "silent" }) }, at ? () => at : undefined);

describe("webhook routes", () => {
  test("an admin creates one: the secret is whsec_ and shown once; the list, the database and a patch never hold it", async ({ svc, loc, as }) => {
    const made = await as.admin.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://hooks.example/in", events: ["thing.created", "thing.moved"] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const hook = webhookCreatedSchema.parse(made.body);
    expect(hook).toMatchObject({ locationId: loc, url: "https://hooks.example/in", active: true, disabledReason: null, rowVersion: 1 });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const raw = hook.secret.slice(6);
    const list = await as.owner.get(`/api/v1/locations/${loc}/webhooks`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((w: { id: string }) => w.id)).toContain(hook.id);
    expect(JSON.stringify(list.body)).not.toContain(raw);
    const [row] = await rows<Record<string, unknown>>(svc.database.db, sql`SELECT * FROM webhooks WHERE id = ${hook.id}`);
    expect(JSON.stringify(row)).not.toContain(raw);
    const patched = await as.owner.patch(`/api/v1/webhooks/${hook.id}`, { events: ["thing.deleted"], active: false, rowVersion: 1 });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(webhookSchema.parse(patched.body)).toMatchObject({ events: ["thing.deleted"], active: false, rowVersion: 2 });
    expect(JSON.stringify(patched.body)).not.toContain(raw);
    const stale = await as.owner.patch(`/api/v1/webhooks/${hook.id}`, { active: true, rowVersion: 1 });
    expect(stale.status).toBe(409);
    const gone = await as.admin.delete(`/api/v1/webhooks/${hook.id}`);
    expect(gone.status).toBe(200);
    expect((await as.admin.get(`/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });

  test("the list pages with limit and cursor: every webhook once, in the order made; next_cursor is null on the last page", async ({ as }) => {
    const own = (await as.owner.post("/api/v1/locations", { name: "Hooks paged" })).body.id as string;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await as.owner.post(`/api/v1/locations/${own}/webhooks`, { url: `https://hooks.example/p${i}`, events: ["thing.created"] });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const walked = await walkPages<{ id: string }>(as.owner, `/api/v1/locations/${own}/webhooks`, 3);
    expect(walked.pages).toBe(3);
    expect(walked.items.map((w) => w.id)).toEqual(made);
    const whole = await as.owner.get(`/api/v1/locations/${own}/webhooks`);
    expect(whole.body).toEqual({ items: expect.any(Array), next_cursor: null });
    expect(whole.body.items).toHaveLength(7);
    await expectMalformedCursorsRefused(as.owner, `/api/v1/locations/${own}/webhooks`);
    expect((await as.owner.get(`/api/v1/locations/${own}/webhooks?limit=0`)).status).toBe(400);
  });

  test("members and viewers are refused (403), an outsider sees nothing (404), a token never reaches them", async ({ svc, loc, as }) => {
    const body = { url: "https://hooks.example/roles", events: ["thing.created"] };
    for (const who of [as.member, as.viewer]) {
      expect((await who.post(`/api/v1/locations/${loc}/webhooks`, body)).status).toBe(403);
      expect((await who.get(`/api/v1/locations/${loc}/webhooks`)).status).toBe(403);
    }
    expect((await as.outsider.post(`/api/v1/locations/${loc}/webhooks`, body)).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/locations/${loc}/webhooks`)).status).toBe(404);
    const hook = (await as.owner.post(`/api/v1/locations/${loc}/webhooks`, body)).body;
    for (const who of [as.member, as.outsider]) {
      expect((await who.patch(`/api/v1/webhooks/${hook.id}`, { active: false, rowVersion: 1 })).status).toBe(404);
      expect((await who.delete(`/api/v1/webhooks/${hook.id}`)).status).toBe(404);
      expect((await who.get(`/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
    }
    const token = await as.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
    expect(token.status).toBe(201);
    const bearer = svc.client();
    const auth = { authorization: `Bearer ${token.body.secret}` };
    expect((await bearer.request("GET", `/api/v1/locations/${loc}/webhooks`, undefined, auth)).status).toBe(403);
    expect((await bearer.request("POST", `/api/v1/locations/${loc}/webhooks`, body, auth)).status).toBe(403);
    expect((await bearer.request("PATCH", `/api/v1/webhooks/${hook.id}`, { active: false, rowVersion: 1 }, auth)).status).toBe(403);
    expect((await bearer.request("GET", `/api/v1/webhooks/${hook.id}/deliveries`, undefined, auth)).status).toBe(403);
    expect((await bearer.request("DELETE", `/api/v1/webhooks/${hook.id}`, undefined, auth)).status).toBe(403);
    await as.owner.delete(`/api/v1/webhooks/${hook.id}`);
  });

  test("limits: url length, https only, events, webhooks per location: each at its bound and one past", async ({ svc, as }) => {
    const loc = (await as.owner.post("/api/v1/locations", { name: "Limits house" })).body.id as string;
    const post = (body: Record<string, unknown>) => as.owner.post(`/api/v1/locations/${loc}/webhooks`, { events: ["thing.created"], ...body });
    const base = "https://hooks.example/";
    expect((await post({ url: base + "a".repeat(MAX_WEBHOOK_URL - base.length) })).status).toBe(201);
    expect((await post({ url: base + "a".repeat(MAX_WEBHOOK_URL - base.length + 1) })).status).toBe(400);
    expect((await post({ url: "ftp://hooks.example/x" })).status).toBe(400);
    expect((await post({ url: "https://user:pw@hooks.example/x" })).status).toBe(400);
    expect((await post({ url: "https://10.0.0.5/x" })).status).toBe(400);
    expect((await post({ url: base, events: [] })).status).toBe(400);
    expect((await post({ url: base, events: ["thing.exploded"] })).status).toBe(400);
    expect((await post({ url: base, events: ["thing.created", "thing.created"] })).status).toBe(400);
    for (let i = 1; i < MAX_WEBHOOKS_PER_LOCATION; i++) expect((await post({ url: `${base}${i}` })).status).toBe(201);
    const past = await post({ url: `${base}past` });
    expect(past.status).toBe(409);
    const [n] = await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM webhooks WHERE location_id = ${loc}`);
    expect(n!.n).toBe(MAX_WEBHOOKS_PER_LOCATION);
  });
});

describe("deliveries", () => {
  test("a REST write and a pushed op each arrive once, signed by the Standard Webhooks scheme", async ({ svc, loc, as }) => {
    const rx = await receiver();
    try {
      const made = webhookCreatedSchema.parse(
        (await as.admin.post(`/api/v1/locations/${loc}/webhooks`, { url: rx.url, events: ["thing.created", "inbox.item_created"] })).body,
      );
      const rest = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill" });
      expect(rest.status).toBe(201);
      const pushedId = uuidv7();
      const pushed = await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id: pushedId, name: "Ladder" } })]);
      expect(pushed.status).toBe(200);
      await deliver(svc);
      await deliver(svc);
      const verifier = new Webhook(made.secret);
      const events = rx.got.map((r) => verifier.verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> });
      const created = events.filter((e) => e.type === "thing.created");
      expect(created.map((e) => e.data.id).sort()).toEqual([rest.body.id, pushedId].sort());
      expect(created.find((e) => e.data.id === pushedId)).toMatchObject({
        data: { locationId: loc, name: "Ladder", action: "thing.created", entityType: "thing" },
      });
      expect(new Set(rx.got.map((r) => r.headers["webhook-id"])).size).toBe(rx.got.length);
      // A tampered body or another secret does not verify.
      const first = rx.got[0]!;
      expect(() => verifier.verify(first.body.replace("thing", "thinG"), first.headers)).toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(first.body, first.headers)).toThrow();
      const log = await as.admin.get(`/api/v1/webhooks/${made.id}/deliveries`);
      expect(log.status).toBe(200);
      expect(log.body.items.length).toBe(rx.got.length);
      expect(
        log.body.items.every(
          (d: { status: string; lastStatusCode: number; attempt: number }) => d.status === "delivered" && d.lastStatusCode === 204 && d.attempt === 1,
        ),
      ).toBe(true);
      const paged = await as.admin.get(`/api/v1/webhooks/${made.id}/deliveries?limit=1`);
      expect(paged.body.items).toHaveLength(1);
      const rest2 = await as.admin.get(`/api/v1/webhooks/${made.id}/deliveries?limit=1&cursor=${paged.body.next_cursor}`);
      expect(rest2.body.items[0].id).not.toBe(paged.body.items[0].id);
      // The log keeps finished deliveries for 30 days.
      await svc.database.db.execute(sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE webhook_id = ${made.id}`);
      expect(await pruneDeliveries(svc.database.db, new Date(Date.now() - 2 * 86_400_000))).toBe(0);
      const pruned = await pruneDeliveries(svc.database.db, new Date());
      expect(pruned).toBe(rx.got.length);
      await as.admin.delete(`/api/v1/webhooks/${made.id}`);
    } finally {
      await rx.close();
    }
  });

  test("loans, moves, boxes and inbox items raise their events; an unsubscribed kind is not sent", async ({ svc, loc, as }) => {
    const rx = await receiver();
    try {
      const events = ["loan.created", "loan.returned", "move.created", "move.finished", "box.unpacked", "inbox.item_created"];
      const made = webhookCreatedSchema.parse((await as.admin.post(`/api/v1/locations/${loc}/webhooks`, { url: rx.url, events })).body);
      const chair = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Chair" })).body;
      const loan = await as.member.post(`/api/v1/things/${chair.id}/loans`, { direction: "out", person: { name: "Sam" } });
      expect(loan.status, JSON.stringify(loan.body)).toBe(201);
      expect((await as.member.post(`/api/v1/loans/${loan.body.id}/return`, {})).status).toBe(200);
      const move = await newMove(as.member, loc, { name: "Spring clean" });
      const s = await packedBox(as.member, loc, "Hook box");
      await addBox(as.member, move.id, s.box.id);
      expect((await as.member.patch(`/api/v1/moves/${move.id}/boxes/${s.box.id}`, { state: "unpacked", rowVersion: 1 })).status).toBe(200);
      const current = (await as.member.get(`/api/v1/moves/${move.id}`)).body;
      expect((await as.member.patch(`/api/v1/moves/${move.id}`, { status: "finished", rowVersion: current.rowVersion })).status).toBe(200);
      const captured = uuidv7();
      const pushed = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: captured, name: "Kettle?" } })]);
      expect(pushed.body.results[0].status).toBe("applied");
      await deliver(svc);
      const verifier = new Webhook(made.secret);
      const got = rx.got.map((r) => verifier.verify(r.body, r.headers) as { type: string; data: Record<string, unknown> });
      expect(got.map((e) => e.type).sort()).toEqual([...events].sort());
      expect(got.find((e) => e.type === "loan.created")!.data).toMatchObject({ id: chair.id, locationId: loc, action: "loan.lent" });
      expect(got.find((e) => e.type === "move.finished")!.data).toMatchObject({ id: move.id, name: "Spring clean" });
      expect(got.find((e) => e.type === "box.unpacked")!.data).toMatchObject({ moveId: move.id, containerId: s.box.id, number: 1 });
      expect(got.find((e) => e.type === "inbox.item_created")!.data).toMatchObject({ thingId: captured, kind: "draft" });
      await as.admin.delete(`/api/v1/webhooks/${made.id}`);
    } finally {
      await rx.close();
    }
  });

  test("a failing receiver is retried with backoff; the webhook ends switched off", async ({ svc, loc, as }) => {
    const rx = await receiver(() => 500);
    try {
      const made = (await as.owner.post(`/api/v1/locations/${loc}/webhooks`, { url: rx.url, events: ["thing.updated"] })).body;
      const thing = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle" })).body;
      expect((await as.member.patch(`/api/v1/things/${thing.id}`, { name: "Kettle 2", rowVersion: thing.rowVersion })).status).toBe(200);
      let at = new Date();
      expect(await deliver(svc, at)).toBe(1);
      // Not due again before its backoff ends.
      expect(await deliver(svc, new Date(at.getTime() + WEBHOOK_BACKOFF_MS[0] - 1000))).toBe(0);
      for (const wait of WEBHOOK_BACKOFF_MS) {
        at = new Date(at.getTime() + wait + 1);
        expect(await deliver(svc, at)).toBe(1);
      }
      expect(rx.got).toHaveLength(1 + WEBHOOK_BACKOFF_MS.length);
      expect(new Set(rx.got.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const [hook] = (await as.owner.get(`/api/v1/locations/${loc}/webhooks`)).body.items.filter((w: { id: string }) => w.id === made.id);
      expect(hook).toMatchObject({ active: false, disabledReason: "failing" });
      const [d] = (await as.owner.get(`/api/v1/webhooks/${made.id}/deliveries`)).body.items;
      expect(d).toMatchObject({ status: "failed", attempt: 6, lastStatusCode: 500 });
      expect(d.attempts).toHaveLength(6);
      // Switched off: new events are not even queued.
      await as.member.patch(`/api/v1/things/${thing.id}`, { name: "Kettle 3", rowVersion: thing.rowVersion + 1 });
      expect((await as.owner.get(`/api/v1/webhooks/${made.id}/deliveries`)).body.items).toHaveLength(1);
      await as.owner.delete(`/api/v1/webhooks/${made.id}`);
    } finally {
      await rx.close();
    }
  });

  test("without the test switch a loopback receiver is refused at create and at delivery", async ({ svc, loc, as }) => {
    const strict = await startService();
    try {
      const admin = await strict.signedIn("Strict Admin");
      const home = (await admin.post("/api/v1/locations", { name: "Strict house" })).body.id as string;
      for (const url of ["http://127.0.0.1:9/hook", "https://127.0.0.1/hook", "https://[::1]/hook", "https://localhost/hook", "https://10.1.2.3/hook"]) {
        const res = await admin.post(`/api/v1/locations/${home}/webhooks`, { url, events: ["thing.created"] });
        expect(res.status, url).toBe(400);
        expect(res.body.error.code).toBe("validation_failed");
      }
      expect((await admin.post(`/api/v1/locations/${home}/webhooks`, { url: "https://hooks.example/ok", events: ["thing.created"] })).status).toBe(201);
    } finally {
      await strict.close();
    }
    // At delivery: a name that resolves to loopback, and a loopback http URL, with the switch off.
    const rx = await receiver();
    try {
      const named = (await as.owner.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://receiver.example/hook", events: ["thing.deleted"] })).body;
      const plain = (await as.owner.post(`/api/v1/locations/${loc}/webhooks`, { url: rx.url, events: ["thing.deleted"] })).body;
      const thing = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Vase" })).body;
      expect((await as.member.delete(`/api/v1/things/${thing.id}`, { rowVersion: thing.rowVersion })).status).toBe(200);
      const made = await deliverDue({
        db: svc.database.db,
        config: { webhooksAllowLoopback: false },
        logger: pino({ level: "silent" }),
        guard: { resolve: async () => [{ address: "127.0.0.1", family: 4 }] },
      });
      expect(made).toBe(2);
      expect(rx.got).toHaveLength(0);
      const [a] = (await as.owner.get(`/api/v1/webhooks/${named.id}/deliveries`)).body.items;
      expect(a).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "the host resolves to an internal address" });
      const [b] = (await as.owner.get(`/api/v1/webhooks/${plain.id}/deliveries`)).body.items;
      expect(b).toMatchObject({ status: "pending", lastError: "https only" });
      await as.owner.delete(`/api/v1/webhooks/${named.id}`);
      await as.owner.delete(`/api/v1/webhooks/${plain.id}`);
    } finally {
      await rx.close();
    }
  });
});
