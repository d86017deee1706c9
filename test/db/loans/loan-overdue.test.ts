/**
 * Overdue loans (issue "moves-loans"): the lender (who recorded the loan) is told once per loan by
 * web push, through the in-process push service stand-in that checks the VAPID JWT and decrypts
 * the payload. Nothing else gets it; a second run sends nothing; a returned loan is never overdue.
 */
import { eq } from "drizzle-orm";
import { expect, test as base } from "vitest";
import { pushMessageSchema } from "../../../shared/push.js";
import { loans, pushSubscriptions } from "../../../server/db/schema/index.js";
import { notifyOverdue } from "../../../server/modules/loans/overdue.js";
import { startService } from "../../support/app.js";
import { locationWithRoles } from "../../support/members.js";
import { startPushService, type Subscriber } from "../../support/push-service.js";

const test = base
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("svc", { scope: "file" }, async ({}, { onCleanup }) => {
    const svc = await startService({ SVC_PUSH_ALLOW_LOOPBACK: "1" });
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

const DAY = 86_400_000;
const subscribeBody = (s: Subscriber, extra: Record<string, unknown> = {}) => ({ endpoint: s.endpoint, keys: s.keys, ...extra });
const messages = (s: Subscriber) => s.received.map((d) => pushMessageSchema.parse(d.message));

test("an overdue loan notifies its lender once, by web push; a returned one never", async ({ svc, team, pushService }) => {
  const { as, locationId } = team;
  const db = svc.database.db;
  await db.delete(pushSubscriptions);
  const deps = { db, config: svc.config, logger: svc.services.logger };
  // Whatever earlier loans of this database are overdue are claimed now, so the counts below are this test's.
  await notifyOverdue(deps, new Date(Date.now() + 400 * DAY));
  const lender = pushService.subscriber();
  const other = pushService.subscriber();
  await as.member.post("/api/v1/me/push-subscriptions", subscribeBody(lender));
  await as.owner.post("/api/v1/me/push-subscriptions", subscribeBody(other));
  const thing = await as.member.post(`/api/v1/locations/${locationId}/things`, { name: "Projector" });
  const today = new Date().toISOString().slice(0, 10);
  const loan = await as.member.post(`/api/v1/things/${thing.body.id}/loans`, { direction: "out", person: { name: "Huda" }, dueOn: today });
  expect(loan.status).toBe(201);
  const returned = await as.member.post(`/api/v1/locations/${locationId}/things`, { name: "Tripod" });
  const done = await as.member.post(`/api/v1/things/${returned.body.id}/loans`, { direction: "out", person: { name: "Huda" }, dueOn: today });
  await as.member.post(`/api/v1/loans/${done.body.id}/return`, {});

  // Due today is not overdue yet.
  expect(await notifyOverdue(deps, new Date())).toEqual({ claimed: 0, sent: 0 });
  const tomorrow = new Date(Date.now() + DAY);
  expect(await notifyOverdue(deps, tomorrow)).toEqual({ claimed: 1, sent: 1 });
  expect(messages(lender)).toEqual([
    { title: "Overdue: Projector", body: `Huda was to bring it back by ${today}.`, url: `/l/${locationId}/loans?state=overdue`, tag: `loan-${loan.body.id}` },
  ]);
  expect(other.received).toEqual([]);
  // Once per loan: later runs send nothing more.
  expect(await notifyOverdue(deps, tomorrow)).toEqual({ claimed: 0, sent: 0 });
  expect(await notifyOverdue(deps, new Date(Date.now() + 30 * DAY))).toEqual({ claimed: 0, sent: 0 });
  expect(lender.received).toHaveLength(1);
  const [row] = await db.select({ at: loans.overdueNotifiedAt, v: loans.rowVersion }).from(loans).where(eq(loans.id, loan.body.id));
  expect(row!.at).not.toBeNull();
  // The notice is the server's bookkeeping: the loan's version did not move.
  expect(row!.v).toBe(1);
  // The in-app fallback is the list's overdue count.
  expect((await as.member.get(`/api/v1/loans?locationId=${locationId}`)).body.counts.overdue).toBe(0);
  expect(pushService.rejected).toEqual([]);
});
