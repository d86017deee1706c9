/**
 * A push notification reaches a second device's service worker (issue "inbox-ai"): the owner turns
 * notifications on in Settings, a member's captures make one notification for the owner, which the server encrypts to the in-process push
 * service (VAPID checked, RFC 8291 decrypted there); headless Chromium has no push service of its
 * own, so the decrypted message is handed to the owner's service worker over CDP
 * (ServiceWorker.deliverPushMessage), and the worker must show it as a notification.
 */
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { eq } from "drizzle-orm";
import { memberships, pushSubscriptions } from "../../server/db/schema/index.js";
import { startPushDispatcher } from "../../server/modules/notifications/dispatcher.js";
import { op, push } from "../support/push.js";
import { startPushService, type PushServiceStandIn } from "../support/push-service.js";
import { freshEmail, goTo, locationIdOf, serviceWorkerReady, signUp } from "./support/app.js";
import { screenshot } from "./support/browser.js";

it.override("e2eEnv", { SVC_PUSH_ALLOW_LOOPBACK: "1", SVC_PUSH_BURST_SECONDS: "1" });

describe("web push", () => {
  let pushService: PushServiceStandIn;
  it.beforeAll(async () => {
    pushService = await startPushService();
  });
  it.afterAll(async () => {
    await pushService?.close();
  });

  it("the owner's device shows one notification for a member's burst of captures, and it opens the first item", async ({ e2e }) => {
    const { svc } = e2e;
    const { context, page } = await e2e.device();
    await context.grantPermissions(["notifications"], { origin: svc.url });
    await signUp(page, "Olive Owner", freshEmail("olive"));
    await serviceWorkerReady(page);
    const locationId = await locationIdOf(page);

    // The owner turns notifications on in Settings. Headless Chromium's PushManager.subscribe has no
    // push service to register with ("Registration failed"), so the page's PushManager answers with
    // the stand-in's subscription instead: endpoint and keys the stand-in can decrypt for.
    const subscriber = pushService.subscriber();
    await page.addInitScript(
      (sub) => {
        let current: unknown = null;
        const w = window as unknown as { appServerKey?: string };
        PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
          const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
          w.appServerKey = btoa(String.fromCharCode(...key))
            .replace(/\+/g, "-")
            .replace(/\//g, "_")
            .replace(/=+$/, "");
          current = {
            endpoint: sub.endpoint,
            toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
            unsubscribe: async () => ((current = null), true),
          };
          return current as PushSubscription;
        };
        PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
      },
      { endpoint: subscriber.endpoint, keys: subscriber.keys },
    );
    await page.reload();
    await goTo(page, "Settings");
    const setting = page.getByRole("group", { name: "Notifications" });
    await setting.getByText("Notifications are off for this device.").waitFor();
    await setting.getByRole("button", { name: "Turn on notifications" }).click();
    await setting.getByText("Notifications are on for this device.").waitFor();
    await screenshot(page, "settings-notifications");
    expect(await page.evaluate(() => (window as unknown as { appServerKey?: string }).appServerKey)).toBe(svc.config.vapid.publicKey);
    const subscribed = () => svc.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscriber.endpoint));
    expect(await subscribed()).toMatchObject([{ lang: "en", p256dh: subscriber.keys.p256dh }]);

    const member = await svc.signedIn("Mo Member");
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId, userId: member.userId, role: "member" });
    const ids = [uuidv7(), uuidv7()];
    for (const [i, id] of ids.entries()) {
      const res = await push(member, [op({ name: "thing.capture", locationId, args: { id, name: `Crate ${i + 1}` } })]);
      expect(res.body.results[0].status).toBe("applied");
    }
    const stop = startPushDispatcher({ db: svc.database.db, config: svc.config, logger: svc.services.logger });
    try {
      await expect.poll(() => subscriber.received.length, { timeout: 15_000 }).toBe(1);
    } finally {
      stop();
    }
    const delivered = subscriber.received[0]!;
    const message = delivered.message as { title: string; body: string; url: string };
    expect(message.body).toBe("2 new items to review");

    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => registrations.push(...e.registrations));
    await cdp.send("ServiceWorker.enable");
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${svc.url}/` && !r.isDeleted)).toBeTruthy();
    const { registrationId } = registrations.find((r) => r.scopeURL === `${svc.url}/` && !r.isDeleted)!;
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: svc.url, registrationId, data: delivered.plaintext.toString("utf8") });

    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      });
    await expect
      .poll(shown, { timeout: 10_000 })
      .toEqual([{ title: message.title, body: "2 new items to review", tag: `inbox-${locationId}`, data: { url: message.url } }]);

    // The notification's URL opens the inbox at the first captured item.
    expect(message.url).toMatch(new RegExp(`^/l/${locationId}/inbox#item-`));
    await page.goto(message.url);
    const target = page.locator(`[id="${message.url.split("#")[1]}"] article`);
    await target.waitFor();
    await expect.poll(() => target.getAttribute("aria-label")).toMatch(/Crate 1/);

    // Turning it off removes this device's subscription from the server and the browser.
    await goTo(page, "Settings");
    await setting.getByRole("button", { name: "Turn on notifications" }).waitFor();
    // (After the reload above the page's PushManager stand-in starts empty: turn on, then off.)
    await setting.getByRole("button", { name: "Turn on notifications" }).click();
    await setting.getByRole("button", { name: "Turn off notifications" }).click();
    await setting.getByText("Notifications are off for this device.").waitFor();
    expect(await subscribed()).toEqual([]);
  });
});
