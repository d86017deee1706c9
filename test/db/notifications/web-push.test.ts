/**
 * Web push to reviewers (issue "inbox-ai"): subscriptions at the edge, and notifications that reach
 * an in-process push service which checks the VAPID JWT and decrypts the payload (RFC 8291), so the
 * real encryption is exercised.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { expect, test as base } from "vitest";
import { pushMessageSchema } from "../../../shared/push.js";
import { loadConfig } from "../../../server/config.js";
import { pushSubscriptions } from "../../../server/db/schema/index.js";
import { ValidationError } from "../../../server/errors/classes.js";
import { dispatchPush } from "../../../server/modules/notifications/dispatcher.js";
import { checkEndpoint } from "../../../server/modules/notifications/service.js";
import { startService } from "../../support/app.js";
import { locationWithRoles } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { startPushService, type Subscriber } from "../../support/push-service.js";

const test = base
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("svc", { scope: "file" }, async ({}, { onCleanup }) => {
    const svc = await startService({ SVC_PUSH_ALLOW_LOOPBACK: "1", SVC_PUSH_BURST_SECONDS: "1" });
    onCleanup(() => svc.close());
    return svc;
  })
  // eslint-disable-next-line no-empty-pattern -- as above
  .extend("pushService", { scope: "file" }, async ({}, { onCleanup }) => {
    const ps = await startPushService();
    onCleanup(() => ps.close());
    return ps;
  })
  .extend("team", { scope: "file" }, async ({ svc }) => locationWithRoles(svc));

type Svc = Awaited<ReturnType<typeof startService>>;
const deps = (svc: Svc) => ({ db: svc.database.db, config: svc.config, logger: svc.services.logger });
/** Everything queued so far is due this far ahead of now. */
const later = (ms = 5_000) => new Date(Date.now() + ms);
/** Each notification test starts with nothing queued and no one subscribed. */
async function fresh(svc: Svc): Promise<void> {
  await dispatchPush(deps(svc), later());
  await svc.database.db.delete(pushSubscriptions);
}
const subscribeBody = (s: Subscriber, extra: Record<string, unknown> = {}) => ({ endpoint: s.endpoint, keys: s.keys, ...extra });
const messages = (s: Subscriber) => s.received.map((d) => pushMessageSchema.parse(d.message));

test("subscribing answers an id; the same endpoint again updates that subscription instead of adding one", async ({ svc, team, pushService }) => {
  const s = pushService.subscriber();
  const first = await team.as.member.post("/api/v1/me/push-subscriptions", subscribeBody(s, { label: "Phone" }));
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  expect(first.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  const again = await team.as.member.post("/api/v1/me/push-subscriptions", subscribeBody(s, { lang: "ar" }));
  expect(again.body.id).toBe(first.body.id);
  const rows = await svc.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, team.as.member.userId));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ lang: "ar", label: null });
});

test("endpoints the server must not call and malformed keys are refused at the edge", async ({ team, pushService }) => {
  const s = pushService.subscriber();
  const refused = async (body: unknown) => {
    const res = await team.as.member.post("/api/v1/me/push-subscriptions", body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    return res.body.error as { message: string; details?: { reason?: string } };
  };
  expect((await refused({ ...subscribeBody(s), endpoint: "https://10.0.0.1/push/abc" })).details?.reason).toBe("the host resolves to an internal address");
  expect((await refused({ ...subscribeBody(s), endpoint: "https://169.254.169.254/latest" })).details?.reason).toBe("the host resolves to an internal address");
  // http is let through for loopback only, and only under the test setting.
  expect((await refused({ ...subscribeBody(s), endpoint: "http://93.184.215.14/push/abc" })).details?.reason).toBe("http is allowed for loopback only");
  expect((await refused({ ...subscribeBody(s), endpoint: "https://push.example/" + "a".repeat(2100) })).message).toMatch(/endpoint/);
  await refused({ ...subscribeBody(s), keys: { p256dh: s.keys.p256dh.slice(1), auth: s.keys.auth } });
  await refused({ ...subscribeBody(s), keys: { p256dh: s.keys.p256dh, auth: "not+base64/url==" } });
  await refused({ endpoint: s.endpoint });
});

test("without SVC_PUSH_ALLOW_LOOPBACK a loopback http endpoint is refused, and the setting is off by default", async ({ pushService }) => {
  const s = pushService.subscriber();
  await expect(checkEndpoint(s.endpoint, { allowLoopback: false })).rejects.toThrow(ValidationError);
  await expect(checkEndpoint(s.endpoint.replace("http:", "https:"), { allowLoopback: false })).rejects.toThrow(/internal address/);
  const dir = mkdtempSync(path.join(tmpdir(), "svc-push-"));
  const config = loadConfig({ SVC_DATA_DIR: dir });
  expect(config.pushAllowLoopback).toBe(false);
  // VAPID keys are made once and kept: the next start knows the same key, so devices stay subscribed.
  expect(loadConfig({ SVC_DATA_DIR: dir }).vapid.publicKey).toBe(config.vapid.publicKey);
});

test("the app reads the VAPID public key; /me push routes need a session, never a personal token", async ({ svc, team, pushService }) => {
  const key = await team.as.member.get("/api/v1/push/vapid-public-key");
  expect(key.body).toEqual({ publicKey: svc.config.vapid.publicKey });
  expect((await svc.client().post("/api/v1/me/push-subscriptions", subscribeBody(pushService.subscriber()))).status).toBe(401);
  const token = await team.as.member.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [team.locationId] });
  expect(token.status).toBe(201);
  const viaToken = await svc
    .client()
    .request("POST", "/api/v1/me/push-subscriptions", subscribeBody(pushService.subscriber()), { authorization: `Bearer ${token.body.secret}` });
  expect(viaToken.status).toBe(403);
});

test("another person cannot delete my subscription; I can", async ({ svc, team, pushService }) => {
  const { body } = await team.as.admin.post("/api/v1/me/push-subscriptions", subscribeBody(pushService.subscriber()));
  expect((await team.as.member.delete(`/api/v1/me/push-subscriptions/${body.id}`)).status).toBe(404);
  expect(await svc.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, body.id))).toHaveLength(1);
  expect((await team.as.admin.delete(`/api/v1/me/push-subscriptions/${body.id}`)).status).toBe(200);
  expect((await team.as.admin.delete(`/api/v1/me/push-subscriptions/${body.id}`)).status).toBe(404);
});

test("a burst of three new items makes one notification per reviewer, in their language, opening the first item", async ({ svc, team, pushService }) => {
  await fresh(svc);
  const { as, locationId } = team;
  const owner = pushService.subscriber();
  const admin = pushService.subscriber();
  const viewer = pushService.subscriber();
  const member = pushService.subscriber();
  await as.owner.post("/api/v1/me/push-subscriptions", subscribeBody(owner));
  await as.admin.post("/api/v1/me/push-subscriptions", subscribeBody(admin, { lang: "ar" }));
  await as.viewer.post("/api/v1/me/push-subscriptions", subscribeBody(viewer));
  await as.member.post("/api/v1/me/push-subscriptions", subscribeBody(member));
  const ids = [uuidv7(), uuidv7(), uuidv7()];
  for (const id of ids) {
    const res = await push(as.member, [op({ name: "thing.capture", locationId, args: { id, name: `Box ${id.slice(-4)}` } })]);
    expect(res.body.results[0].status).toBe("applied");
  }
  // Still inside the burst: nothing goes out yet.
  expect(await dispatchPush(deps(svc), new Date())).toEqual({ sent: 0, gone: 0, failed: 0 });
  expect(await dispatchPush(deps(svc), later())).toEqual({ sent: 2, gone: 0, failed: 0 });
  expect(await dispatchPush(deps(svc), later())).toEqual({ sent: 0, gone: 0, failed: 0 });
  const inbox = (await as.owner.get(`/api/v1/inbox?locationId=${locationId}&kind=draft`)).body.items as { id: string; thing: { id: string } }[];
  const first = inbox.find((i) => i.thing.id === ids[0])!;
  const [location] = (await as.owner.get("/api/v1/me")).body.locations as { id: string; name: string }[];
  expect(messages(owner)).toEqual([
    { title: `To review in ${location!.name}`, body: "3 new items to review", url: `/l/${locationId}/inbox#item-${first.id}`, tag: `inbox-${locationId}` },
  ]);
  expect(messages(admin)).toEqual([expect.objectContaining({ body: "3 عناصر جديدة للمراجعة", url: `/l/${locationId}/inbox#item-${first.id}` })]);
  // Viewers do not review; the member captured these drafts themselves.
  expect(viewer.received).toEqual([]);
  expect(member.received).toEqual([]);
  expect(owner.received[0]!.vapidSubject).toMatch(/^mailto:/);
  expect(pushService.rejected).toEqual([]);
});

test("a sync drop notifies the person whose op was dropped, at once, and no one else", async ({ svc, team, pushService }) => {
  await fresh(svc);
  const { as, locationId } = team;
  const viewer = pushService.subscriber();
  const owner = pushService.subscriber();
  await as.viewer.post("/api/v1/me/push-subscriptions", subscribeBody(viewer));
  await as.owner.post("/api/v1/me/push-subscriptions", subscribeBody(owner));
  const o = op({ name: "thing.create", locationId, args: { id: uuidv7(), name: "Viewer's lamp" } });
  const { results } = (await push(as.viewer, [o])).body as { results: { status: string; inboxItemId: string }[] };
  expect(results[0]!.status).toBe("dropped");
  expect(await dispatchPush(deps(svc), new Date())).toMatchObject({ sent: 1 });
  expect(messages(viewer)).toEqual([
    {
      title: "A change was not saved",
      body: "Your change to “Viewer's lamp” could not be saved. Open the inbox to see why.",
      url: `/l/${locationId}/inbox#item-${results[0]!.inboxItemId}`,
      tag: `drop-${results[0]!.inboxItemId}`,
    },
  ]);
  expect(await dispatchPush(deps(svc), later())).toMatchObject({ sent: 0 });
  expect(owner.received).toEqual([]);
});

test("a push service answering 410 or 404 removes the subscription; another failure keeps it", async ({ svc, team, pushService }) => {
  await fresh(svc);
  const { as, locationId } = team;
  const gone = pushService.subscriber();
  const missing = pushService.subscriber();
  const busy = pushService.subscriber();
  const ids: string[] = [];
  for (const s of [gone, missing, busy]) ids.push((await as.owner.post("/api/v1/me/push-subscriptions", subscribeBody(s))).body.id);
  gone.answer = 410;
  missing.answer = 404;
  busy.answer = 503;
  await push(as.member, [op({ name: "thing.capture", locationId, args: { id: uuidv7(), name: "Ladder" } })]);
  expect(await dispatchPush(deps(svc), later())).toEqual({ sent: 0, gone: 2, failed: 1 });
  const left = await svc.database.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, as.owner.userId));
  expect(left.map((r) => r.id)).toContain(ids[2]);
  expect(left.map((r) => r.id)).not.toContain(ids[0]);
  expect(left.map((r) => r.id)).not.toContain(ids[1]);
});
